import { type PartMoveWire, routes } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useFid, useMoves, usePart, usePartsFormat } from './api.ts';
import { MoveDialog, PartDialog } from './dialogs.tsx';

/** `/parts/:id`: a part, its stock per location, adjust and transfer, and every move (docs/product.md). */
export default function PartScreen() {
  const { t } = useTranslation();
  const fid = useFid();
  const id = Number(useParams().id);
  const part = usePart(fid, id);
  const moves = useMoves(fid, id);
  const fmt = usePartsFormat();
  const canManage = useCan(routes.parts.adjust);
  const [dialog, setDialog] = useState<'edit' | 'adjust' | 'transfer' | null>(null);
  const columns = useMemo<DataColumn<PartMoveWire>[]>(
    () => [
      {
        id: 'at',
        header: t('parts.when'),
        value: (m) => m.at,
        text: (m) => fmt.dateTime(m.at),
        phone: 'title',
      },
      {
        id: 'kind',
        header: t('parts.move'),
        value: (m) => m.kind,
        text: (m) =>
          m.reason
            ? `${t(`parts.moves.${m.kind}`)} · ${t(`parts.reasons.${m.reason}`)}`
            : t(`parts.moves.${m.kind}`),
        phone: 'detail',
      },
      { id: 'location', header: t('parts.location'), value: (m) => m.location, phone: 'detail' },
      {
        id: 'qty',
        header: t('parts.quantity'),
        value: (m) => m.qty,
        text: (m) => (m.qty > 0 ? `+${fmt.qty(m.qty)}` : fmt.qty(m.qty)),
        phone: 'detail',
      },
      {
        id: 'after',
        header: t('parts.beforeAfter'),
        value: (m) => m.after,
        text: (m) => `${fmt.qty(m.before)} → ${fmt.qty(m.after)}`,
        phone: 'detail',
      },
      { id: 'by', header: t('parts.by'), value: (m) => m.by?.nm ?? '', phone: 'detail' },
      { id: 'note', header: t('parts.note'), value: (m) => m.note },
    ],
    [t, fmt],
  );
  if (fid === null) return null;
  if (part.isError)
    return (
      <Alert color="red" role="alert">
        {t('common.error')}
      </Alert>
    );
  const p = part.data;
  if (!p) return null;
  return (
    <Stack>
      <Anchor component={Link} to="/parts">
        {t('parts.back')}
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {`${p.number} ${p.name}`}
        </Title>
        {canManage && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setDialog('edit')} data-testid="part-edit">
              {t('parts.editPart')}
            </Button>
            <Button onClick={() => setDialog('adjust')} data-testid="part-adjust">
              {t('parts.adjust')}
            </Button>
            <Button variant="light" onClick={() => setDialog('transfer')} data-testid="part-transfer">
              {t('parts.transfer')}
            </Button>
          </Group>
        )}
      </Group>
      <Group gap="xl" wrap="wrap">
        <Text>
          {t('parts.onHand')}: <b data-testid="part-on-hand">{`${fmt.qty(p.on_hand)} ${p.unit}`.trim()}</b>
        </Text>
        <Text>
          {t('parts.cost')}: <b data-testid="part-cost-value">{fmt.money(p.cost)}</b>
        </Text>
        <Text>
          {t('parts.value')}: <b>{fmt.money(p.value)}</b>
        </Text>
        {p.manufacturer && <Text c="dimmed">{p.manufacturer}</Text>}
      </Group>
      <Title order={2} size="h4">
        {t('parts.stock')}
      </Title>
      {p.stock.length === 0 ? (
        <Text c="dimmed">{t('parts.noStock')}</Text>
      ) : (
        <Table data-testid="part-stock">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('parts.location')}</Table.Th>
              <Table.Th ta="right">{t('parts.quantity')}</Table.Th>
              <Table.Th ta="right">{t('parts.threshold')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.stock.map((s) => (
              <Table.Tr key={s.location_id}>
                <Table.Td>{s.location}</Table.Td>
                <Table.Td ta="right" data-testid={`stock-${s.location_id}`}>
                  {fmt.qty(s.qty)}{' '}
                  {s.low && (
                    <Badge color="orange" variant="light">
                      {t('parts.low')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">{s.threshold === null ? '' : fmt.qty(s.threshold)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Title order={2} size="h4">
        {t('parts.history')}
      </Title>
      <DataTable
        data={moves.data ?? []}
        columns={columns}
        getRowId={(m) => String(m.id)}
        csvName="part-moves"
        emptyText={t('parts.noMoves')}
        minWidth={720}
        data-testid="part-moves"
      />
      {dialog === 'edit' && <PartDialog fid={fid} part={p} onClose={() => setDialog(null)} />}
      {(dialog === 'adjust' || dialog === 'transfer') && (
        <MoveDialog fid={fid} part={p} mode={dialog} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}
