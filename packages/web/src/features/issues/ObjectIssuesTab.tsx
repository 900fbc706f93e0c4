import { routes } from '@fleetkeep/core';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useIssues } from './api.ts';
import { IssuesTable } from './IssuesTable.tsx';
import { ReportIssueDialog } from './ReportIssueDialog.tsx';
import { useFleetFormats } from './useFleetFormats.ts';

/**
 * The "Issues" tab of a unit's or trailer's page: all its issues (newest first) and "Report issue" for
 * this object.
 */
export function ObjectIssuesTab({ type, id }: { type: 'u' | 't'; id: number }) {
  const { t } = useTranslation();
  const { fid, tz, dateFormat, timeFormat } = useFleetFormats();
  const canReport = useCan(routes.issues.create);
  const list = useIssues(fid, { object_type: type, object_id: id });
  const [reporting, setReporting] = useState(false);
  if (fid === null) return null;
  return (
    <Stack>
      {canReport && (
        <Group justify="flex-end">
          <Button onClick={() => setReporting(true)} data-testid="object-issue-report">
            {t('issues.report')}
          </Button>
        </Group>
      )}
      {list.isError ? (
        <Alert color="red" role="alert">
          {t('issues.loadFailed')}
        </Alert>
      ) : list.isPending ? (
        <Loading />
      ) : (
        <IssuesTable
          issues={list.data.issues}
          tz={tz}
          dateFormat={dateFormat}
          timeFormat={timeFormat}
          showObject={false}
          urlPrefix="i"
          testId="object-issues"
        />
      )}
      {reporting && (
        <ReportIssueDialog
          fid={fid}
          object={`${type}${id}`}
          onClose={() => setReporting(false)}
          onReported={() => setReporting(false)}
        />
      )}
    </Stack>
  );
}
