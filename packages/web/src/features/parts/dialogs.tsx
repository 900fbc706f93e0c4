import {
  ADJUST_REASONS,
  type PartWire,
  type PurchaseOrderWire,
  STOCK_LOCATION_KINDS,
  type StockLocationWire,
} from '@fleetkeep/core';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../components/NumericInput.tsx';
import { Select } from '../../components/Select.tsx';
import { client } from '../../lib/client.ts';
import { readRefusal, refusalMessage } from '../../lib/refusal.ts';
import { useLocations, usePartsWrite } from './api.ts';

/** The parts screens' dialogs: part, location, new purchase order, adjust, transfer, receive. */

function Failure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const refusal = readRefusal(error);
  const stock = refusal.issues.some((r) => r.message === 'insufficient_stock');
  return (
    <Alert color="red" role="alert" data-testid="parts-error">
      {stock ? t('parts.insufficient') : refusalMessage(refusal) || t('common.error')}
    </Alert>
  );
}

function Buttons({
  busy,
  disabled,
  onClose,
  testid,
}: {
  busy: boolean;
  disabled?: boolean;
  onClose: () => void;
  testid: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onClose}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={busy} disabled={disabled} data-testid={testid}>
        {t('common.save')}
      </Button>
    </Group>
  );
}

export function PartDialog({ fid, part, onClose }: { fid: number; part?: PartWire; onClose: () => void }) {
  const { t } = useTranslation();
  const [number, setNumber] = useState(part?.number ?? '');
  const [name, setName] = useState(part?.name ?? '');
  const [manufacturer, setManufacturer] = useState(part?.manufacturer ?? '');
  const [unit, setUnit] = useState(part?.unit ?? '');
  const [cost, setCost] = useState(part ? String(part.cost) : '');
  const save = usePartsWrite(fid, (f, body: Parameters<typeof client.parts.create>[1]) =>
    part ? client.parts.update(f, part.id, body) : client.parts.create(f, body),
  );
  return (
    <Modal opened onClose={onClose} title={part ? t('parts.editPart') : t('parts.newPart')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(
            { number, name, manufacturer, unit, ...(cost.trim() && { cost }) },
            { onSuccess: onClose },
          );
        }}
      >
        <Stack>
          <TextInput
            label={t('parts.number')}
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
            required
            data-testid="part-number"
          />
          <TextInput
            label={t('parts.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            data-testid="part-name"
          />
          <TextInput
            label={t('parts.manufacturer')}
            value={manufacturer}
            onChange={(e) => setManufacturer(e.currentTarget.value)}
          />
          <TextInput label={t('parts.unit')} value={unit} onChange={(e) => setUnit(e.currentTarget.value)} />
          <NumericInput
            label={t('parts.cost')}
            value={cost}
            precision={3}
            maxIntegerLength={9}
            onChange={setCost}
            data-testid="part-cost"
          />
          <Failure error={save.error} />
          <Buttons
            busy={save.isPending}
            disabled={!number.trim() || !name.trim()}
            onClose={onClose}
            testid="part-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}

export function LocationDialog({
  fid,
  location,
  onClose,
}: {
  fid: number;
  location: StockLocationWire | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(location?.name ?? '');
  const [kind, setKind] = useState<string>(location?.kind ?? 'store');
  const save = usePartsWrite(fid, (f, body: { name: string; kind: (typeof STOCK_LOCATION_KINDS)[number] }) =>
    location ? client.stockLocations.update(f, location.id, body) : client.stockLocations.create(f, body),
  );
  return (
    <Modal opened onClose={onClose} title={location ? location.name : t('parts.newLocation')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name, kind: kind as (typeof STOCK_LOCATION_KINDS)[number] }, { onSuccess: onClose });
        }}
      >
        <Stack>
          <TextInput
            label={t('parts.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            data-testid="location-name"
          />
          <Select
            label={t('parts.kind')}
            options={STOCK_LOCATION_KINDS.map((k) => ({ value: k, label: t(`parts.kinds.${k}`) }))}
            value={kind}
            onChange={(v) => setKind(v ?? 'store')}
            searchable={false}
            allowDeselect={false}
            data-testid="location-kind"
          />
          <Failure error={save.error} />
          <Buttons busy={save.isPending} disabled={!name.trim()} onClose={onClose} testid="location-save" />
        </Stack>
      </form>
    </Modal>
  );
}

export function NewOrderDialog({
  fid,
  onClose,
  onCreated,
}: {
  fid: number;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [vendor, setVendor] = useState('');
  const save = usePartsWrite(fid, (f, body: { vendor: string }) => client.purchaseOrders.create(f, body));
  return (
    <Modal opened onClose={onClose} title={t('parts.newOrder')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ vendor }, { onSuccess: (o) => onCreated(o.id) });
        }}
      >
        <Stack>
          <TextInput
            label={t('parts.vendor')}
            value={vendor}
            onChange={(e) => setVendor(e.currentTarget.value)}
            required
            data-testid="po-vendor"
          />
          <Failure error={save.error} />
          <Buttons busy={save.isPending} disabled={!vendor.trim()} onClose={onClose} testid="po-save" />
        </Stack>
      </form>
    </Modal>
  );
}

function useLocationOptions(fid: number) {
  const { t } = useTranslation();
  return (useLocations(fid).data ?? []).map((l) => ({
    value: String(l.id),
    label: `${l.name} (${t(`parts.kinds.${l.kind}`)})`,
  }));
}

/** Adjust (with a reason) or transfer the stock of a part. */
export function MoveDialog({
  fid,
  part,
  mode,
  onClose,
}: {
  fid: number;
  part: PartWire;
  mode: 'adjust' | 'transfer';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const options = useLocationOptions(fid);
  const [from, setFrom] = useState<string | null>(part.stock[0] ? String(part.stock[0].location_id) : null);
  const [to, setTo] = useState<string | null>(null);
  const [qty, setQty] = useState('');
  const [direction, setDirection] = useState<'in' | 'out'>('in');
  const [reason, setReason] = useState<string>('count');
  const [note, setNote] = useState('');
  const save = usePartsWrite(fid, async (f, _: null) => {
    if (mode === 'transfer')
      return client.parts.transfer(f, part.id, { from: Number(from), to: Number(to), qty, note });
    const n = Number(qty);
    return client.parts.adjust(f, part.id, {
      location_id: Number(from),
      delta: direction === 'in' ? n : -n,
      reason: reason as (typeof ADJUST_REASONS)[number],
      note,
    });
  });
  const ready = from !== null && Number(qty) > 0 && (mode === 'adjust' || (to !== null && to !== from));
  return (
    <Modal opened onClose={onClose} title={mode === 'adjust' ? t('parts.adjust') : t('parts.transfer')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(null, { onSuccess: onClose });
        }}
      >
        <Stack>
          <Select
            label={mode === 'adjust' ? t('parts.location') : t('parts.from')}
            options={options}
            value={from}
            onChange={setFrom}
            data-testid="move-from"
          />
          {mode === 'transfer' && (
            <Select
              label={t('parts.to')}
              options={options}
              value={to}
              onChange={setTo}
              data-testid="move-to"
            />
          )}
          {mode === 'adjust' && (
            <>
              <Select
                label={t('parts.direction')}
                options={[
                  { value: 'in', label: t('parts.add') },
                  { value: 'out', label: t('parts.remove') },
                ]}
                value={direction}
                onChange={(v) => setDirection(v === 'out' ? 'out' : 'in')}
                searchable={false}
                allowDeselect={false}
                data-testid="move-direction"
              />
              <Select
                label={t('parts.reason')}
                options={ADJUST_REASONS.map((r) => ({ value: r, label: t(`parts.reasons.${r}`) }))}
                value={reason}
                onChange={(v) => setReason(v ?? 'count')}
                searchable={false}
                allowDeselect={false}
                data-testid="move-reason"
              />
            </>
          )}
          <NumericInput
            label={t('parts.quantity')}
            value={qty}
            precision={3}
            maxIntegerLength={9}
            onChange={setQty}
            data-testid="move-qty"
          />
          <TextInput label={t('parts.note')} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
          <Failure error={save.error} />
          <Buttons busy={save.isPending} disabled={!ready} onClose={onClose} testid="move-save" />
        </Stack>
      </form>
    </Modal>
  );
}

/** Receive what is outstanding of a purchase order's lines at a location. */
export function ReceiveDialog({
  fid,
  order,
  onClose,
}: {
  fid: number;
  order: PurchaseOrderWire;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const options = useLocationOptions(fid);
  const [location, setLocation] = useState<string | null>(
    order.location_id === null ? null : String(order.location_id),
  );
  const open = order.lines.filter((l) => l.received < l.qty);
  const [qty, setQty] = useState<Record<number, string>>(
    Object.fromEntries(open.map((l) => [l.id, String(Math.round((l.qty - l.received) * 1000) / 1000)])),
  );
  const save = usePartsWrite(fid, (f, _: null) =>
    client.purchaseOrders.receive(f, order.id, {
      location_id: Number(location),
      lines: open.filter((l) => Number(qty[l.id]) > 0).map((l) => ({ line_id: l.id, qty: qty[l.id] ?? '0' })),
    }),
  );
  return (
    <Modal opened onClose={onClose} title={t('parts.receive')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(null, { onSuccess: onClose });
        }}
      >
        <Stack>
          <Select
            label={t('parts.location')}
            options={options}
            value={location}
            onChange={setLocation}
            data-testid="receive-location"
          />
          {open.map((l) => (
            <NumericInput
              key={l.id}
              label={l.part}
              value={qty[l.id] ?? ''}
              precision={3}
              maxIntegerLength={9}
              onChange={(v) => setQty((q) => ({ ...q, [l.id]: v }))}
              data-testid={`receive-qty-${l.id}`}
            />
          ))}
          <Failure error={save.error} />
          <Buttons
            busy={save.isPending}
            disabled={location === null}
            onClose={onClose}
            testid="receive-save"
          />
        </Stack>
      </form>
    </Modal>
  );
}
