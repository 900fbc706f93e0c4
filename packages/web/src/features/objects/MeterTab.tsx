import { COUNTER_MAX, type MeterEntryWire, MeterReason, meterSource, routes } from '@fleetkeep/core';
import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { NumericInput } from '../../components/NumericInput.tsx';
import { integerDigits, numericValue } from '../../components/numeric.ts';
import { Select } from '../../components/Select.tsx';
import { ApiError } from '../../lib/api.ts';
import { displayToKm, kmToDisplay, round3 } from '../../lib/distance.ts';
import { fleetTime } from '../../lib/fleetTime.ts';
import { useSession } from '../../lib/session.ts';
import { useCan } from '../../lib/useCan.ts';
import { RecordReadingDialog, VoidReadingDialog } from './MeterDialogs.tsx';
import { useMeter, useMeterChanges } from './meterApi.ts';
import { type MeterValidity, passesValidity } from './meterForms.ts';
import type { ObjectRecord } from './ObjectScreen.tsx';
import { useLabels } from './useLabels.ts';

const STATE_COLOR = { accepted: 'green', baseline: 'blue', refused: 'red', replaced: 'gray' } as const;
const REASON_KEY = new Map<string, string>(Object.entries(MeterReason).map(([key, text]) => [text, key]));

/**
 * The unit page's meter history (PRODUCT.md "Service objects and counters"): the kept
 * readings of its devices and the hand corrections, newest first: time (to the second), source, the
 * counters in the fleet's units (km or miles, e.h.), accepted / baseline / refused with the reason, and
 * who accepted or corrected when. A manager (manageService) accepts a refused reading (confirmed) or
 * enters a correction; everyone else reads. Meter integrity (docs/product.md): the list filters by source
 * and by validity; a manager voids a reading with a reason (struck through, the reason shown) and
 * restores it, records a reading by hand and marks the meter replaced.
 */
export function MeterTab({ object }: { object: ObjectRecord }) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const labels = useLabels();
  const canManage = useCan(routes.meter.accept);
  const history = useMeter(fid, object.id);
  const changes = useMeterChanges(fid, object.id);
  const { accept, correct, restore, replaced } = changes;
  const [accepting, setAccepting] = useState<MeterEntryWire | null>(null);
  const [correcting, setCorrecting] = useState(false);
  // Meter integrity (docs/product.md): void / restore, record a reading, meter replaced.
  const [voiding, setVoiding] = useState<MeterEntryWire | null>(null);
  const [restoring, setRestoring] = useState<MeterEntryWire | null>(null);
  const [recording, setRecording] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const [validity, setValidity] = useState<MeterValidity | null>(null);
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  // Two readings may lie seconds apart: the time shows its seconds.
  const timeFormat = (auth?.model.s.timeFormat || 'HH:mm').replace('mm', 'mm:ss');

  const columns = useMemo<DataColumn<MeterEntryWire>[]>(() => {
    // One clock: the fleet's, its zone named when the browser's differs (docs/product.md).
    const when = (unix: number) => fleetTime(unix, labels.tz, { dateFormat, timeFormat });
    // Counters are whole, in the user's language (docs/product.md "Numbers, money and times").
    const distance = labels.distance;
    const counter = (value: number | null, old: number | null, text: (v: number) => string) =>
      value === null
        ? // "Meter replaced" names the counters the old meter ended at.
          old === null
          ? '-'
          : t('meter.was', { value: text(old) })
        : old === null
          ? text(value)
          : `${text(value)} (${t('meter.was', { value: text(old) })})`;
    const reasonText = (text: string) => {
      const key = REASON_KEY.get(text);
      return key ? t(`meter.reason_${key}`) : text;
    };
    const reason = (e: MeterEntryWire) => (e.reason === null ? '' : reasonText(e.reason));
    // A voided reading stays listed, struck through, with why and who (or "automatically").
    const voidedLine = (e: MeterEntryWire) =>
      e.voided === null
        ? null
        : t(e.voided.auto ? 'meter.voidedAuto' : 'meter.voidedBy', {
            reason: reasonText(e.voided.reason),
            name: e.voided.by?.nm ?? '',
            time: when(e.voided.at),
          });
    const struck = (e: MeterEntryWire, node: ReactNode) =>
      e.voided === null ? (
        node
      ) : (
        <Text span inherit td="line-through" c="dimmed">
          {node}
        </Text>
      );
    // A device's new baseline moved the unit's interval baselines by the same step.
    const signed = (v: number, text: (v: number) => string) => (v > 0 ? `+${text(v)}` : text(v));
    const shifted = (e: MeterEntryWire) =>
      [
        e.shift_cnm === null ? null : signed(e.shift_cnm, distance),
        e.shift_cneh === null ? null : signed(e.shift_cneh, labels.engineHours),
      ]
        .filter((v) => v !== null)
        // A recorded reading after "meter replaced" (manual, fuel) set the new scale, not a device.
        .map((value) =>
          t(
            e.src === 'manual' || e.src === 'fuel'
              ? 'meter.intervalsShiftedReplaced'
              : 'meter.intervalsShifted',
            {
              value,
            },
          ),
        );
    return [
      {
        id: 'tm',
        header: t('meter.time'),
        value: (e) => e.tm,
        text: (e) => when(Math.floor(e.tm / 1000)),
        cell: (e) => struck(e, <span style={{ whiteSpace: 'nowrap' }}>{when(Math.floor(e.tm / 1000))}</span>),
        phone: 'title',
      },
      {
        id: 'src',
        header: t('meter.source'),
        value: (e) => e.src,
        text: (e) => t(`meter.src_${e.src}`),
        cell: (e) => t(`meter.src_${e.src}`),
        filter: {
          label: t('meter.source'),
          options: meterSource.options.map((src) => ({ value: src, label: t(`meter.src_${src}`) })),
        },
        phone: 'detail',
      },
      {
        id: 'cnm',
        header: t('objects.mileage'),
        value: (e) => e.cnm,
        text: (e) => counter(e.cnm, e.old_cnm, distance),
        cell: (e) => struck(e, counter(e.cnm, e.old_cnm, distance)),
        phone: 'detail',
      },
      {
        id: 'cneh',
        header: t('objects.engineHours'),
        value: (e) => e.cneh,
        text: (e) => counter(e.cneh, e.old_cneh, labels.engineHours),
        cell: (e) => struck(e, counter(e.cneh, e.old_cneh, labels.engineHours)),
        phone: 'detail',
      },
      {
        id: 'st',
        header: t('objects.state'),
        value: (e) => t(`meter.st_${e.st}`),
        text: (e) =>
          [[t(`meter.st_${e.st}`), reason(e)].filter(Boolean).join(': '), ...shifted(e), voidedLine(e) ?? '']
            .filter(Boolean)
            .join('; '),
        cell: (e) => (
          <Stack gap={2}>
            <Badge variant="light" color={STATE_COLOR[e.st]} radius="sm" data-testid={`meter-state-${e.st}`}>
              {t(`meter.st_${e.st}`)}
            </Badge>
            {e.reason !== null && (
              <Text size="xs" c="dimmed">
                {reason(e)}
              </Text>
            )}
            {shifted(e).map((line) => (
              <Text key={line} size="xs" c="dimmed" data-testid="meter-shift">
                {line}
              </Text>
            ))}
            {e.voided !== null && (
              <>
                <Badge variant="outline" color="gray" radius="sm" data-testid="meter-voided">
                  {t('meter.state_voided')}
                </Badge>
                <Text size="xs" c="dimmed" data-testid="meter-void-reason-text">
                  {voidedLine(e)}
                </Text>
              </>
            )}
          </Stack>
        ),
        phone: 'detail',
      },
      {
        id: 'by',
        header: t('meter.by'),
        value: (e) => (e.by ? `${e.by.nm} ${e.at === null ? '' : when(e.at)}` : ''),
        cell: (e) =>
          e.by ? (
            <Stack gap={0}>
              <Text size="sm">{e.by.nm}</Text>
              {e.at !== null && (
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {when(e.at)}
                </Text>
              )}
            </Stack>
          ) : (
            '-'
          ),
        phone: 'detail',
      },
      ...(canManage
        ? [
            {
              id: 'actions',
              header: t('meter.accept'),
              hiddenHeader: true,
              exported: false,
              sortable: false,
              searchable: false,
              value: () => null,
              cell: (e: MeterEntryWire) =>
                e.st === 'refused' ? (
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setAccepting(e)}
                    data-testid="meter-accept"
                  >
                    {t('meter.accept')}
                  </Button>
                ) : e.kind === 'reading' && e.st === 'accepted' ? (
                  e.voided === null ? (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => setVoiding(e)}
                      data-testid="meter-void"
                    >
                      {t('meter.void')}
                    </Button>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setRestoring(e)}
                      data-testid="meter-restore"
                    >
                      {t('meter.restore')}
                    </Button>
                  )
                ) : null,
              phone: 'end' as const,
            },
          ]
        : []),
    ];
  }, [t, labels, dateFormat, timeFormat, canManage]);

  if (history.isPending) return <Loading />;
  if (history.isError)
    return (
      <Alert color="red" role="alert">
        {t('objects.loadFailed')}
      </Alert>
    );

  const rows = history.data.filter((e) => passesValidity(e, validity));
  return (
    <>
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(e) => `${e.kind}-${e.id}`}
        urlPrefix="meter"
        csvName="meter-history"
        emptyText={t('meter.empty')}
        maxHeight="60vh"
        minWidth={860}
        data-testid="meter-history"
        filters={
          <Select
            label={t('meter.filterState')}
            options={[
              { value: 'valid', label: t('meter.state_valid') },
              { value: 'voided', label: t('meter.state_voided') },
            ]}
            value={validity}
            clearable
            onChange={(v) => setValidity(v === 'valid' || v === 'voided' ? v : null)}
            style={{ flex: '0 1 12rem' }}
            data-testid="meter-validity"
          />
        }
        activeFilters={validity === null ? 0 : 1}
        toolbar={
          canManage && object.unit ? (
            <Group gap="sm" wrap="wrap">
              <Button onClick={() => setRecording(true)} data-testid="meter-record">
                {t('meter.record')}
              </Button>
              <Button variant="light" onClick={() => setCorrecting(true)} data-testid="meter-correct">
                {t('meter.correct')}
              </Button>
              <Button variant="default" onClick={() => setReplacing(true)} data-testid="meter-replaced">
                {t('meter.replaced')}
              </Button>
            </Group>
          ) : undefined
        }
      />
      {recording && (
        <RecordReadingDialog
          miles={labels.miles}
          distanceUnit={labels.distanceUnit}
          record={changes.record}
          onClose={() => {
            changes.record.reset();
            setRecording(false);
          }}
        />
      )}
      {voiding && (
        <VoidReadingDialog
          entry={voiding}
          voidReading={changes.voidReading}
          onClose={() => {
            changes.voidReading.reset();
            setVoiding(null);
          }}
        />
      )}
      <ConfirmDialog
        opened={restoring !== null}
        title={t('meter.restoreTitle')}
        text={t('meter.restoreText')}
        busy={restore.isPending}
        onCancel={() => setRestoring(null)}
        onConfirm={() => {
          if (restoring) restore.mutate(restoring.id, { onSettled: () => setRestoring(null) });
        }}
      />
      <ConfirmDialog
        opened={replacing}
        title={t('meter.replaced')}
        text={t('meter.replacedText')}
        busy={replaced.isPending}
        onCancel={() => setReplacing(false)}
        onConfirm={() => replaced.mutate(undefined, { onSettled: () => setReplacing(false) })}
      />
      <ConfirmDialog
        opened={accepting !== null}
        title={t('meter.acceptTitle')}
        text={t('meter.acceptText')}
        busy={accept.isPending}
        onCancel={() => setAccepting(null)}
        onConfirm={() => {
          if (accepting) accept.mutate(accepting.id, { onSettled: () => setAccepting(null) });
        }}
      />
      {correcting && object.unit && (
        <CorrectionDialog
          mileage={object.unit.cnm ?? 0}
          engineHours={object.unit.cneh ?? 0}
          miles={labels.miles}
          distanceUnit={labels.distanceUnit}
          busy={correct.isPending}
          error={correct.error}
          onCancel={() => {
            correct.reset();
            setCorrecting(false);
          }}
          onSave={(body) => correct.mutate(body, { onSuccess: () => setCorrecting(false) })}
        />
      )}
    </>
  );
}

/** "Enter correction": the unit's counters as they are, in the fleet's units; only what changed is sent. */
function CorrectionDialog(props: {
  mileage: number;
  engineHours: number;
  miles: boolean;
  distanceUnit: string;
  busy: boolean;
  error: Error | null;
  onCancel: () => void;
  onSave: (body: { cnm?: number; cneh?: number }) => void;
}) {
  const { t } = useTranslation();
  const shownMileage = round3(kmToDisplay(props.mileage, props.miles));
  const [mileage, setMileage] = useState(String(shownMileage));
  const [hours, setHours] = useState(String(round3(props.engineHours)));
  const [empty, setEmpty] = useState(false);
  const digits = integerDigits(COUNTER_MAX);
  const save = () => {
    const m = numericValue(mileage);
    const h = numericValue(hours);
    const body = {
      ...(m !== null && m !== shownMileage && { cnm: round3(displayToKm(m, props.miles)) }),
      ...(h !== null && h !== round3(props.engineHours) && { cneh: h }),
    };
    if (body.cnm === undefined && body.cneh === undefined) return setEmpty(true);
    props.onSave(body);
  };
  return (
    <Modal opened onClose={props.onCancel} title={t('meter.correct')} centered>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('meter.correctHint')}
        </Text>
        <NumericInput
          label={`${t('objects.mileage')}, ${props.distanceUnit}`}
          value={mileage}
          precision={3}
          maxIntegerLength={digits}
          onChange={(v) => {
            setEmpty(false);
            setMileage(v);
          }}
          data-testid="meter-correct-mileage"
        />
        <NumericInput
          label={`${t('objects.engineHours')}, ${t('objects.engineHoursUnit')}`}
          value={hours}
          precision={3}
          maxIntegerLength={digits}
          onChange={(v) => {
            setEmpty(false);
            setHours(v);
          }}
          data-testid="meter-correct-hours"
        />
        {empty && (
          <Text size="sm" c="red" role="alert">
            {t('meter.nothingToCorrect')}
          </Text>
        )}
        {props.error && (
          <Alert color="red" role="alert">
            {props.error instanceof ApiError ? props.error.message : t('common.error')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('common.cancel')}
          </Button>
          <Button loading={props.busy} onClick={save} data-testid="meter-correct-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
