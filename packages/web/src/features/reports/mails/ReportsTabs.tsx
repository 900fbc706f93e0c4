import { REPORT_TYPES, type ReportType } from '@fleetkeep/core';
import { Stack, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollTabs } from '../../../components/ScrollTabs/ScrollTabs.tsx';
import { useSession } from '../../../lib/session.ts';
import { useUrlParams } from '../../../lib/urlParams.ts';
import { ReportMailsPanel } from './ReportMailsPanel.tsx';

/**
 * The two tabs of /reports: the report itself (`children`) and its report mails
 * (`?tab=mails`, kept in the URL like every tab). A new report mail starts with the report shown.
 */
export function ReportsTabs({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const [params, patchParams] = useUrlParams();
  const tab = params.get('tab') === 'mails' ? 'mails' : 'report';
  const shown = params.get('type');
  const report: ReportType = REPORT_TYPES.find((r) => r === shown) ?? REPORT_TYPES[0];
  if (fid === null || fid === undefined) return null;
  return (
    <ScrollTabs
      value={tab}
      keepMounted={false}
      onChange={(v) =>
        patchParams((next) => {
          if (v === 'mails') next.set('tab', 'mails');
          else next.delete('tab');
          return next;
        })
      }
    >
      <Tabs.List>
        <Tabs.Tab value="report" data-testid="reports-tab-report">
          {t('menu.reports')}
        </Tabs.Tab>
        <Tabs.Tab value="mails" data-testid="reports-tab-mails">
          {t('reportMails.tab')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="report" pt="md">
        {children}
      </Tabs.Panel>
      <Tabs.Panel value="mails" pt="md">
        <Stack>
          <Title order={1} size="h2">
            {t('reportMails.tab')}
          </Title>
          <ReportMailsPanel fid={fid} report={report} />
        </Stack>
      </Tabs.Panel>
    </ScrollTabs>
  );
}
