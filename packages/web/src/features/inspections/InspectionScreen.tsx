import { routes } from '@fleetkeep/core';
import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { usePermissions } from '../../lib/useCan.ts';
import { useDeleteInspection, useInspection, useUpdateInspection } from './api.ts';
import { CertifyDialog } from './CertifyDialog.tsx';
import { DefectList } from './DefectList.tsx';
import { InspectionImage, StateBadge, useFormName, useInspectionContext, useItemLabel } from './shared.tsx';

/**
 * /inspections/{id}: a submitted inspection, locked (docs/product.md "Inspections"): the results, the
 * defects with their certification (a mechanic certifies each, with a signature), the submitter's
 * signature, and the acknowledgement of the report by the next inspection's driver.
 */
export default function InspectionScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const { fid, when, miles } = useInspectionContext();
  const inspection = useInspection(fid, Number(id) || null);
  const can = usePermissions();
  const update = useUpdateInspection(fid ?? 0);
  const remove = useDeleteInspection(fid ?? 0);
  const [certifying, setCertifying] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const label = useItemLabel();
  const formName = useFormName();

  if (fid === null) return null;
  if (inspection.isPending) return <Loading />;
  if (!inspection.data) return <Alert color="red">{t('activation.loadFailed')}</Alert>;
  const i = inspection.data;
  const canManage = can(routes.inspectionForms.create);
  const resultText = (k: string, r: (typeof i.res)[number] | undefined) => {
    if (!r) return '—';
    if (k === 'pf') return r.ok === null ? '—' : r.ok ? t('inspections.pass') : t('inspections.fail');
    if (k === 'num') return r.v === null ? '—' : String(r.v);
    if (k === 'text') return r.tx ?? '—';
    return '';
  };

  return (
    <Stack maw={820}>
      <Anchor component={Link} to="/inspections" size="sm">
        ← {t('inspections.back')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('inspections.inspectionOf', { name: i.on })}
          </Title>
          <Text c="dimmed" size="sm">
            {formName(i)} · {when(i.at)} · {i.by?.nm ?? ''}
          </Text>
          {(i.mi !== null || i.eh !== null) && (
            <Text size="sm">
              {i.mi !== null &&
                `${t('inspections.mileage')}: ${Math.round(miles ? i.mi / 1.609344 : i.mi)} ${miles ? 'mi' : 'km'}  `}
              {i.eh !== null && `${t('inspections.engineHours')}: ${i.eh}`}
            </Text>
          )}
        </Stack>
        <StateBadge state={i.st} />
      </Group>

      {i.defects.length > 0 && (
        <>
          <Title order={4}>{t('inspections.defects')}</Title>
          <DefectList
            inspection={i}
            action={(defectId) =>
              canManage ? (
                <Button size="sm" onClick={() => setCertifying(defectId)} data-testid={`certify-${defectId}`}>
                  {t('inspections.certify')}
                </Button>
              ) : null
            }
          />
          <Paper withBorder p="sm" radius="md" data-testid="acknowledgement">
            {i.ak ? (
              <Text size="sm" c="green">
                {t('inspections.acknowledged', { name: i.ak.by?.nm ?? '', when: when(i.ak.at) })}
              </Text>
            ) : (
              <Group justify="space-between">
                <Text size="sm">{t('inspections.notAcknowledged')}</Text>
                <Button
                  size="sm"
                  variant="default"
                  loading={update.isPending}
                  onClick={() => update.mutate({ id: i.id, body: { ack: true } })}
                >
                  {t('inspections.ackNow')}
                </Button>
              </Group>
            )}
          </Paper>
        </>
      )}

      <Title order={4}>{t('inspections.items')}</Title>
      <Table.ScrollContainer minWidth={320}>
        <Table striped>
          <Table.Tbody>
            {i.items.map((item, n) => {
              const r = i.res.find((x) => x.i === n);
              return (
                <Table.Tr key={n}>
                  <Table.Td>
                    {n + 1}. {label(item)}
                  </Table.Td>
                  <Table.Td c={r?.ok === false ? 'red' : undefined}>
                    {resultText(item.k, r)}
                    {r?.img && item.k !== 'pf' && (
                      <InspectionImage fid={fid} id={i.id} aid={r.img} alt={label(item)} h={48} />
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {i.note && <Text>{i.note}</Text>}
      {i.sig && (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('inspections.signature')}
          </Text>
          <InspectionImage fid={fid} id={i.id} aid={i.sig} alt={t('inspections.signature')} h={80} />
        </Stack>
      )}
      {canManage && (
        <Group>
          <Button color="red" variant="light" onClick={() => setDeleting(true)}>
            {t('inspections.delete')}
          </Button>
        </Group>
      )}
      <CertifyDialog
        fid={fid}
        inspectionId={i.id}
        defectId={certifying}
        onClose={() => setCertifying(null)}
      />
      <ConfirmDialog
        opened={deleting}
        title={t('inspections.delete')}
        text={t('inspections.deleteConfirm')}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          await remove.mutateAsync(i.id);
          navigate('/inspections', { replace: true });
        }}
      />
    </Stack>
  );
}
