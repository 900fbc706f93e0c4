import { DOCUMENT_ATTACHMENT_BYTES_MAX, DOCUMENT_ATTACHMENTS_MAX, routes } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Attachments } from '../../components/Attachments.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { client } from '../../lib/client.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import {
  useDeleteDocument,
  useDeleteDocumentFile,
  useDocument,
  useDocumentFiles,
  useInvalidateDocuments,
} from './api.ts';
import { DocumentDialog } from './DocumentDialog.tsx';
import { useDocumentFormat } from './format.ts';
import { RenewDialog } from './RenewDialog.tsx';
import { STATE_COLOR } from './rules.ts';

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

const OWNER_PATH = { u: 'unit', t: 'trailer', d: 'driver' } as const;

/**
 * /documents/{id} (docs/product.md "Documents"): the document, its state, its periods (the current one
 * first, the renewals before it below), its files, and for managers edit, renew and delete.
 */
export default function DocumentScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const session = useSession();
  const timeFormat = (session.status === 'authenticated' && session.auth.model.s.timeFormat) || 'HH:mm';
  const fmt = useDocumentFormat();
  const id = Number(params.id);
  const doc = useDocument(fmt.fid, id);
  const canManage = useCan(routes.documents.update);
  const files = useDocumentFiles(fmt.fid ?? 0, id);
  const removeFile = useDeleteDocumentFile(fmt.fid ?? 0, id);
  const invalidate = useInvalidateDocuments(fmt.fid);
  const remove = useDeleteDocument(fmt.fid, id);
  const [editing, setEditing] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const fid = fmt.fid;
  if (fid === null) return null;
  if (doc.isError)
    return (
      <Alert color="red" role="alert">
        {t('documents.notFound')}
      </Alert>
    );
  if (doc.isPending) return <Loading />;
  const d = doc.data;
  const typeName = d.type === 'custom' ? d.type_name : t(`documents.type.${d.type}`);
  const stateText =
    d.state === 'expiring'
      ? t('documents.daysLeft', { days: Math.max(0, d.days_left) })
      : t(`documents.state.${d.state}`);
  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Title order={1} size="h2" data-testid="doc-title">
            {typeName}
          </Title>
          <Badge color={STATE_COLOR[d.state]} variant="light" size="lg" data-testid="doc-state">
            {stateText}
          </Badge>
        </Group>
        {canManage && (
          <Group gap="xs" wrap="wrap">
            <Button onClick={() => setRenewing(true)} data-testid="doc-renew">
              {t('documents.renew')}
            </Button>
            <Button variant="default" onClick={() => setEditing(true)} data-testid="doc-edit">
              {t('documents.edit')}
            </Button>
            <Button variant="subtle" color="red" onClick={() => setDeleting(true)} data-testid="doc-delete">
              {t('documents.delete')}
            </Button>
          </Group>
        )}
      </Group>
      <Card withBorder>
        <Group gap="xl" align="flex-start" wrap="wrap">
          <Fact label={t('documents.field.owner')}>
            <Anchor component={Link} to={`/${OWNER_PATH[d.owner_type]}/${d.owner_id}?tab=documents`}>
              {d.owner_name}
            </Anchor>
          </Fact>
          <Fact label={t('documents.field.number')}>{d.number || '—'}</Fact>
          <Fact label={t('documents.field.issuer')}>{d.issuer || '—'}</Fact>
          <Fact label={t('documents.field.validFrom')}>{fmt.date(d.valid_from) || '—'}</Fact>
          <Fact label={t('documents.field.validTo')}>{fmt.date(d.valid_to)}</Fact>
          <Fact label={t('documents.field.cost')}>{fmt.money(d.cost) || '—'}</Fact>
          <Fact label={t('documents.field.reminder')}>
            {t('documents.reminderDays', { days: d.reminder_days })}
          </Fact>
        </Group>
      </Card>
      <Title order={2} size="h4">
        {t('documents.history')}
      </Title>
      <Table.ScrollContainer minWidth={320}>
        <Table striped data-testid="doc-periods">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('documents.field.validFrom')}</Table.Th>
              <Table.Th>{t('documents.field.validTo')}</Table.Th>
              <Table.Th>{t('documents.field.number')}</Table.Th>
              <Table.Th>{t('documents.field.cost')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.periods.map((p) => (
              <Table.Tr key={p.id} data-testid={`doc-period-${p.id}`}>
                <Table.Td>{fmt.date(p.valid_from) || '—'}</Table.Td>
                <Table.Td>{fmt.date(p.valid_to)}</Table.Td>
                <Table.Td>{p.number || '—'}</Table.Td>
                <Table.Td>{fmt.money(p.cost) || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={2} size="h4">
        {t('documents.files')}
      </Title>
      <Attachments
        upload={(list, onProgress) => client.documents.attachmentUpload.upload(fid, id, list, onProgress)}
        fileUrl={(aid) => client.documents.attachmentDownload.url(fid, id, aid)}
        list={files}
        editable={canManage}
        dateFormat={fmt.dateFormat}
        timeFormat={timeFormat}
        remove={removeFile}
        onUploaded={invalidate}
        capsMessage={() =>
          t('documents.fileCaps', {
            files: DOCUMENT_ATTACHMENTS_MAX,
            size: DOCUMENT_ATTACHMENT_BYTES_MAX / (1024 * 1024),
          })
        }
        testIds={{ attach: 'doc-attach', error: 'doc-attach-error', table: 'doc-files' }}
      />
      {editing && (
        <DocumentDialog document={d} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      )}
      {renewing && <RenewDialog document={d} onClose={() => setRenewing(false)} />}
      <ConfirmDialog
        opened={deleting}
        title={t('documents.delete')}
        text={t('documents.deleteConfirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => navigate('/documents', { replace: true }),
            onError: () => setDeleting(false),
          })
        }
      />
    </Stack>
  );
}
