import { isEditablePurchaseOrder, routes } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { NumericInput } from '../../components/NumericInput.tsx';
import { Select } from '../../components/Select.tsx';
import { client } from '../../lib/client.ts';
import { useCan } from '../../lib/useCan.ts';
import { useFid, useOrder, useParts, usePartsFormat, usePartsWrite } from './api.ts';
import { ReceiveDialog } from './dialogs.tsx';

/** `/purchase-orders/:id`: vendor, lines, order, receive, cancel (docs/product.md "Parts and stock"). */
export default function PurchaseOrderScreen() {
  const { t } = useTranslation();
  const fid = useFid();
  const id = Number(useParams().id);
  const order = useOrder(fid, id);
  const parts = useParts(fid);
  const fmt = usePartsFormat();
  const canManage = useCan(routes.purchaseOrders.update);
  const [receiving, setReceiving] = useState(false);
  const [partId, setPartId] = useState<string | null>(null);
  const [qty, setQty] = useState('1');
  const [cost, setCost] = useState('');
  type Line = { part_id: number; qty: number | string; cost: number | string };
  const setLines = usePartsWrite(fid, (f, lines: Line[]) => client.purchaseOrders.update(f, id, { lines }));
  const act = usePartsWrite(fid, (f, action: 'order' | 'cancel') => client.purchaseOrders[action](f, id, {}));
  if (fid === null) return null;
  if (order.isError)
    return (
      <Alert color="red" role="alert">
        {t('common.error')}
      </Alert>
    );
  const o = order.data;
  if (!o) return null;
  const editable = canManage && isEditablePurchaseOrder(o.status);
  const current: Line[] = o.lines.map((l) => ({ part_id: l.part_id, qty: l.qty, cost: l.cost }));
  const partOptions = (parts.data ?? []).map((p) => ({
    value: String(p.id),
    label: `${p.number} ${p.name}`,
  }));
  const add = () => {
    const p = parts.data?.find((x) => String(x.id) === partId);
    if (!p || !(Number(qty) > 0)) return;
    setLines.mutate([...current, { part_id: p.id, qty, cost: cost.trim() ? cost : p.cost }], {
      onSuccess: () => {
        setPartId(null);
        setQty('1');
        setCost('');
      },
    });
  };
  return (
    <Stack>
      <Anchor component={Link} to="/parts?tab=orders">
        {t('parts.back')}
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {`#${o.id} ${o.vendor}`}{' '}
          <Badge variant="light" data-testid="po-status">
            {t(`parts.statuses.${o.status}`)}
          </Badge>
        </Title>
        {canManage && (
          <Group gap="xs">
            {o.status === 'draft' && (
              <Button
                onClick={() => act.mutate('order')}
                disabled={o.lines.length === 0}
                data-testid="po-order"
              >
                {t('parts.placeOrder')}
              </Button>
            )}
            {(o.status === 'ordered' || o.status === 'partly_received') && (
              <Button onClick={() => setReceiving(true)} data-testid="po-receive">
                {t('parts.receive')}
              </Button>
            )}
            {isEditablePurchaseOrder(o.status) && (
              <Button
                variant="default"
                color="red"
                onClick={() => act.mutate('cancel')}
                data-testid="po-cancel"
              >
                {t('parts.cancelOrder')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      {(act.error || setLines.error) && (
        <Alert color="red" role="alert">
          {t('common.error')}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table data-testid="po-lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('parts.part')}</Table.Th>
              <Table.Th ta="right">{t('parts.quantity')}</Table.Th>
              <Table.Th ta="right">{t('parts.received')}</Table.Th>
              <Table.Th ta="right">{t('parts.cost')}</Table.Th>
              {editable && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {o.lines.map((l, index) => (
              <Table.Tr key={l.id}>
                <Table.Td>{l.part}</Table.Td>
                <Table.Td ta="right">{fmt.qty(l.qty)}</Table.Td>
                <Table.Td ta="right">{fmt.qty(l.received)}</Table.Td>
                <Table.Td ta="right">{fmt.money(l.cost)}</Table.Td>
                {editable && (
                  <Table.Td ta="right">
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => setLines.mutate(current.filter((_, i) => i !== index))}
                    >
                      {t('common.delete')}
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text fw={600}>
        {t('parts.total')}: {fmt.money(o.total)}
      </Text>
      {editable && (
        <Group align="flex-end" gap="xs" wrap="wrap">
          <Select
            label={t('parts.part')}
            options={partOptions}
            value={partId}
            onChange={setPartId}
            w={260}
            data-testid="po-line-part"
          />
          <NumericInput
            label={t('parts.quantity')}
            value={qty}
            precision={3}
            maxIntegerLength={9}
            onChange={setQty}
            w={110}
            data-testid="po-line-qty"
          />
          <NumericInput
            label={t('parts.cost')}
            value={cost}
            precision={3}
            maxIntegerLength={9}
            onChange={setCost}
            w={120}
            data-testid="po-line-cost"
          />
          <Button
            variant="light"
            onClick={add}
            disabled={partId === null || setLines.isPending}
            data-testid="po-line-add"
          >
            {t('parts.addLine')}
          </Button>
        </Group>
      )}
      {receiving && <ReceiveDialog fid={fid} order={o} onClose={() => setReceiving(false)} />}
    </Stack>
  );
}
