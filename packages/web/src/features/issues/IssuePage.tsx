import {
  formatFleetDateTime,
  formatWhole,
  ISSUE_ATTACHMENT_BYTES_MAX,
  ISSUE_ATTACHMENTS_MAX,
  personActions,
  routes,
  unitLabel,
} from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Attachments } from '../../components/Attachments.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { ApiError } from '../../lib/api.ts';
import { client } from '../../lib/client.ts';
import { kmToDisplay } from '../../lib/distance.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  useDeleteIssue,
  useDeleteIssuePhoto,
  useInvalidateIssues,
  useIssue,
  useIssueAction,
  useIssuePhotos,
} from './api.ts';
import { NoteDialog } from './NoteDialog.tsx';
import { PRIORITY_COLOR, STATUS_COLOR } from './rules.ts';
import { useFleetFormats } from './useFleetFormats.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} style={{ minWidth: '10rem' }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Stack>
  );
}

/**
 * /issues/{id} (docs/product.md "Issues"): what was reported, by whom and when, the meter then, the
 * photos, and the status actions a manager of issues has (resolve, close as not a defect, reopen,
 * delete). The reporter adds photos to their own issue while it is open.
 */
export default function IssuePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const session = useSession();
  const userId = session.status === 'authenticated' ? session.auth.user.id : null;
  const { fid, tz, miles, dateFormat, timeFormat } = useFleetFormats();
  const id = Number(params.id);
  const issue = useIssue(fid, id);
  const canManage = useCan(routes.issues.resolve);
  const canDelete = useCan(routes.issues.remove);
  // An open issue becomes a work order's (docs/product.md "Work orders": the create dialog filled in).
  const canOrder = useCan(routes.workOrders.create);
  const [noteFor, setNoteFor] = useState<'resolve' | 'close' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const act = useIssueAction(fid ?? 0, id);
  const remove = useDeleteIssue(fid ?? 0);
  const photos = useIssuePhotos(fid ?? 0, id);
  const removePhoto = useDeleteIssuePhoto(fid ?? 0, id);
  const invalidate = useInvalidateIssues(fid);

  if (fid === null) return null;
  if (issue.isPending) return <Loading />;
  if (issue.isError)
    return (
      <Alert color="red" role="alert">
        {issue.error instanceof ApiError && issue.error.code === 5
          ? t('issues.notFound')
          : t('issues.loadFailed')}
      </Alert>
    );
  const i = issue.data;
  const when = (unix: number) => formatFleetDateTime(unix, tz, dateFormat, timeFormat, dayjsLocale());
  const actions = canManage ? personActions(i.status) : [];
  const photosEditable = canManage || (i.reported_by?.id === userId && i.status === 'open');
  const reason = (err: unknown) => (err instanceof ApiError ? err.reason : String(err));

  return (
    <Stack>
      <Anchor component={Link} to="/issues" size="sm">
        {t('issues.back')}
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }} data-testid="issue-heading">
            {i.title}
          </Title>
          <Group gap="xs">
            <Badge
              color={PRIORITY_COLOR[i.priority]}
              variant="light"
              radius="sm"
              data-testid="issue-priority"
            >
              {t(`issues.priority.${i.priority}`)}
            </Badge>
            <Badge color={STATUS_COLOR[i.status]} variant="filled" radius="sm" data-testid="issue-status">
              {t(`issues.status.${i.status}`)}
            </Badge>
          </Group>
        </Stack>
        <Group gap="sm" wrap="wrap">
          {actions.includes('resolve') && (
            <Button onClick={() => setNoteFor('resolve')} data-testid="issue-resolve">
              {t('issues.resolve')}
            </Button>
          )}
          {actions.includes('close') && (
            <Button variant="default" onClick={() => setNoteFor('close')} data-testid="issue-close">
              {t('issues.close')}
            </Button>
          )}
          {actions.includes('reopen') && (
            <Button
              variant="default"
              loading={act.isPending}
              onClick={() => act.mutate({ action: 'reopen' }, { onError: (err) => setFailure(reason(err)) })}
              data-testid="issue-reopen"
            >
              {t('issues.reopen')}
            </Button>
          )}
          {canOrder && i.status === 'open' && (
            <Button
              variant="default"
              component={Link}
              to={`/work-orders?object=${i.object_type}:${i.object_id}&issue=${i.id}`}
              data-testid="issue-work-order"
            >
              {t('workOrders.fromIssue')}
            </Button>
          )}
          {i.work_order_id !== null && (
            <Button
              variant="subtle"
              component={Link}
              to={`/work-orders/${i.work_order_id}`}
              data-testid="issue-open-wo"
            >
              {t('workOrders.title')}
            </Button>
          )}
          {canDelete && (
            <Button variant="subtle" color="red" onClick={() => setDeleting(true)} data-testid="issue-delete">
              {t('common.delete')}
            </Button>
          )}
        </Group>
      </Group>
      {failure && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <Card withBorder>
        <Group gap="lg" wrap="wrap" align="flex-start">
          <Fact label={t('issues.object')}>
            <Anchor
              component={Link}
              to={`/${i.object_type === 'u' ? 'unit' : 'trailer'}/${i.object_id}?tab=issues`}
            >
              {i.object_name}
            </Anchor>
          </Fact>
          <Fact label={t('issues.reported')}>{when(i.reported_at)}</Fact>
          <Fact label={t('issues.reporter')}>{i.reported_by?.nm ?? '—'}</Fact>
          {i.mileage !== null && (
            <Fact label={t('issues.mileage')}>
              {`${formatWhole(kmToDisplay(i.mileage, miles), i18n.language)} ${unitLabel(i18n.language, miles ? 'mile' : 'kilometer')}`}
            </Fact>
          )}
          {i.engine_hours !== null && (
            <Fact
              label={t('issues.engineHours')}
            >{`${formatWhole(i.engine_hours, i18n.language)} ${unitLabel(i18n.language, 'hour', 1, 'narrow')}`}</Fact>
          )}
          {i.ended_at !== null && (
            <Fact label={i.status === 'closed' ? t('issues.closedAt') : t('issues.resolvedAt')}>
              {`${when(i.ended_at)}${i.ended_by ? ` · ${i.ended_by.nm}` : ''}`}
            </Fact>
          )}
        </Group>
        {i.description && (
          <Text mt="md" style={{ whiteSpace: 'pre-wrap' }} data-testid="issue-description">
            {i.description}
          </Text>
        )}
        {i.note && (
          <Alert
            mt="md"
            color={i.status === 'closed' ? 'gray' : 'green'}
            title={t('issues.note')}
            data-testid="issue-note-shown"
          >
            {i.note}
          </Alert>
        )}
      </Card>
      <Title order={2} size="h4">
        {t('issues.photos')}
      </Title>
      <Attachments
        upload={(files, onProgress) => client.issues.attachmentUpload.upload(fid, id, files, onProgress)}
        fileUrl={(aid) => client.issues.attachmentDownload.url(fid, id, aid)}
        list={photos}
        editable={photosEditable}
        dateFormat={dateFormat}
        timeFormat={timeFormat}
        remove={removePhoto}
        onUploaded={invalidate}
        capsMessage={() =>
          t('issues.photoCaps', {
            files: ISSUE_ATTACHMENTS_MAX,
            size: ISSUE_ATTACHMENT_BYTES_MAX / (1024 * 1024),
          })
        }
        testIds={{ attach: 'issue-attach', error: 'issue-attach-error', table: 'issue-photos-table' }}
      />
      {noteFor && <NoteDialog fid={fid} issueId={id} action={noteFor} onClose={() => setNoteFor(null)} />}
      <ConfirmDialog
        opened={deleting}
        title={t('issues.deleteTitle')}
        text={t('issues.deleteConfirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(id, {
            onSuccess: () => navigate('/issues', { replace: true }),
            onError: (err) => {
              setDeleting(false);
              setFailure(reason(err));
            },
          })
        }
      />
    </Stack>
  );
}
