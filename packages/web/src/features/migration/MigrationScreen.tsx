import {
  FLEET_TRANSFER_CSV_COLLECTIONS,
  type FleetTransferReply,
  LUBELOGGER_DATE_FORMATS,
  LUBELOGGER_KINDS,
  type LubeLoggerCommitReply,
  type LubeLoggerKind,
  type LubeLoggerParseReply,
  UNIT_DEVICE_ID_MAX,
} from '@fleetkeep/core';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Paper,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ApiError } from '../../lib/api.ts';
import { downloadFile } from '../../lib/transfer.ts';
import {
  csvPath,
  exportPath,
  useCommitLubeLogger,
  useFleetUnits,
  useImportDocument,
  useMigrationFleet,
  useParseLubeLogger,
} from './api.ts';
import {
  checkDocument,
  type DeviceMode,
  type DocumentCheck,
  deviceIds,
  guessKind,
  RESULT_EXTRA_KEYS,
  SUMMARY_KEYS,
  takenDevices,
  type VehicleChoice,
  vehicleTargets,
} from './rules.ts';

/**
 * Spec §2 `/migration/{fleetId}` (admin on that fleet only; the route guard of core guards.ts) and
 * PRODUCT.md "Administration": the fleet's export (JSON, and CSV per collection), the import of a
 * Fleetkeep export with a summary before and after, and the migration from LubeLogger's CSV exports
 * (files, preview, vehicle → unit mapping, result summary).
 */
export default function MigrationScreen() {
  const { t } = useTranslation();
  const fid = Number(useParams().id);
  const fleet = useMigrationFleet(fid);
  if (fleet.isPending) return <Loading />;
  if (!fleet.data) return <Text c="dimmed">{t('fleetAdmin.notFound')}</Text>;
  return (
    <Stack gap="lg">
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Text size="sm" c="dimmed">
          {t('screen.migration')}
        </Text>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }} data-testid="migration-title">
          {fleet.data.n}
        </Title>
      </Stack>
      <ExportPanel fid={fid} />
      <ImportPanel fid={fid} />
      <LubeLoggerPanel fid={fid} />
    </Stack>
  );
}

function errorText(t: (k: string) => string, err: unknown): string {
  if (err instanceof ApiError) return err.message || t('migration.failed');
  return t('migration.failed');
}

function ExportPanel({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (key: string, path: string, name: string) => {
    setBusy(key);
    setError(null);
    try {
      await downloadFile(path, name);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-export">
      <Stack gap="sm">
        <Title order={2} size="h4" id="migration-export">
          {t('migration.exportTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('migration.exportHint')}
        </Text>
        <Group>
          <Button
            loading={busy === 'json'}
            onClick={() => download('json', exportPath(fid), `fleet-${fid}-export.json`)}
            data-testid="migration-export-json"
          >
            {t('migration.exportJson')}
          </Button>
        </Group>
        <Text size="sm" fw={500}>
          {t('migration.exportCsv')}
        </Text>
        <Group gap="xs">
          {FLEET_TRANSFER_CSV_COLLECTIONS.map((c) => (
            <Button
              key={c}
              size="xs"
              variant="default"
              loading={busy === c}
              onClick={() => download(c, csvPath(fid, c), `fleet-${fid}-${c}.csv`)}
              data-testid={`migration-export-csv-${c}`}
            >
              {t(`migration.collection.${c}`)}
            </Button>
          ))}
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function CountsTable({
  head,
  rows,
}: {
  head?: string[];
  rows: { key: string; values: (number | string)[] }[];
}) {
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table striped withTableBorder>
        {head && (
          <Table.Thead>
            <Table.Tr>
              {head.map((h, i) => (
                <Table.Th key={h || i} ta={i === 0 ? 'left' : 'right'}>
                  {h}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
        )}
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key}>
              {r.values.map((v, i) => (
                <Table.Td key={i} ta={i === 0 ? 'left' : 'right'}>
                  {v}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ImportPanel({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [check, setCheck] = useState<DocumentCheck | null>(null);
  const [result, setResult] = useState<FleetTransferReply | null>(null);
  // The device prompt: keep the file's identifiers or enter new ones; a field per unit asked again.
  const [mode, setMode] = useState<DeviceMode | null>(null);
  const [fields, setFields] = useState<Record<number, string>>({});
  const [taken, setTaken] = useState<number[]>([]);
  const importDoc = useImportDocument(fid);
  const fleetUnits = useFleetUnits(fid);
  // Units of the fleet with the same name are reused with their own device (import-objects.ts).
  const existing = new Set((fleetUnits.data?.units ?? []).map((u) => u.nm));
  const created = check?.ok ? check.units.filter((u) => !existing.has(u.name)) : [];
  const asked = created.filter((u) => u.id in fields);

  const choose = async (f: File | null) => {
    setFile(f);
    setResult(null);
    setMode(null);
    setFields({});
    setTaken([]);
    importDoc.reset();
    setCheck(f ? checkDocument(await f.text()) : null);
  };
  const chooseMode = (next: DeviceMode) => {
    setMode(next);
    setTaken([]);
    importDoc.reset();
    setFields(next === 'enter' ? Object.fromEntries(created.map((u) => [u.id, ''])) : {});
  };
  const run = () => {
    if (!check?.ok || mode === null) return;
    const sent = deviceIds(Object.fromEntries(asked.map((u) => [u.id, fields[u.id] ?? ''])));
    importDoc.mutate(
      { document: check.document, devices: mode, device_ids: sent },
      {
        onSuccess: (r) => setResult(r),
        onError: (err) => {
          const units = err instanceof ApiError ? takenDevices(err.details, check.units, sent) : [];
          if (units.length === 0) return;
          setTaken(units);
          // Asked again with the identifier that is in use, to be changed or emptied.
          const device = new Map(check.units.map((u) => [u.id, u.device]));
          setFields((now) => ({
            ...Object.fromEntries(units.map((id) => [id, device.get(id) ?? ''])),
            ...now,
          }));
        },
      },
    );
  };
  const refused = importDoc.isError && taken.length > 0;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-import">
      <Stack gap="sm">
        <Title order={2} size="h4" id="migration-import">
          {t('migration.importTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('migration.importHint')}
        </Text>
        <FileInput
          label={t('migration.chooseFile')}
          accept="application/json,.json"
          value={file}
          onChange={choose}
          clearable
          data-testid="migration-import-file"
        />
        {check && !check.ok && (
          <Alert color="red" role="alert">
            {t(check.reason === 'json' ? 'migration.notJson' : 'migration.notExport')}
          </Alert>
        )}
        {check?.ok && !result && (
          <Stack gap="xs" data-testid="migration-import-summary">
            <Text size="sm">{t('migration.summaryOf', { name: check.fleetName })}</Text>
            <CountsTable
              rows={SUMMARY_KEYS.map((k) => ({
                key: k,
                values: [t(`migration.collection.${k}`), check.counts[k]],
              }))}
            />
            {created.length > 0 && (
              <Stack gap="xs" data-testid="migration-devices">
                <Radio.Group
                  label={t('migration.devices')}
                  value={mode ?? ''}
                  onChange={(v) => chooseMode(v as DeviceMode)}
                >
                  <Stack gap={6} mt={6}>
                    <Radio value="keep" label={t('migration.devicesKeep')} />
                    <Radio value="enter" label={t('migration.devicesEnter')} />
                  </Stack>
                </Radio.Group>
                {asked.length > 0 && (
                  <Text size="sm" c="dimmed">
                    {t('migration.devicesEmptyHint')}
                  </Text>
                )}
                {asked.map((u) => (
                  <TextInput
                    key={u.id}
                    label={u.name}
                    value={fields[u.id] ?? ''}
                    onChange={(e) => {
                      const text = e.currentTarget.value;
                      setFields((now) => ({ ...now, [u.id]: text }));
                      setTaken((now) => now.filter((id) => id !== u.id));
                    }}
                    error={taken.includes(u.id) ? t('migration.deviceTaken') : undefined}
                    maxLength={UNIT_DEVICE_ID_MAX}
                    data-testid={`migration-device-${u.id}`}
                  />
                ))}
              </Stack>
            )}
            <Group>
              <Button
                onClick={run}
                loading={importDoc.isPending}
                disabled={created.length > 0 && mode === null}
                data-testid="migration-import-confirm"
              >
                {t('migration.importConfirm')}
              </Button>
            </Group>
          </Stack>
        )}
        {importDoc.isError && !refused && (
          <Alert color="red" role="alert">
            {errorText(t, importDoc.error)}
          </Alert>
        )}
        {result && (
          <Stack gap="xs" data-testid="migration-import-result">
            <Alert color="green">{t('migration.importDone')}</Alert>
            <CountsTable
              head={['', t('migration.created'), t('migration.matched'), t('migration.skipped')]}
              rows={[
                ...[...SUMMARY_KEYS, ...RESULT_EXTRA_KEYS].map((k) => ({
                  key: k,
                  values: [
                    t(`migration.collection.${k}`),
                    result.created[k],
                    result.matched[k],
                    result.skipped[k],
                  ],
                })),
              ]}
            />
            {result.secrets.length > 0 && (
              <Alert color="yellow" data-testid="migration-secrets">
                {t('migration.secretsNeeded', { names: result.secrets.map((x) => x.name).join(', ') })}
              </Alert>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

interface LubeFile {
  name: string;
  kind: LubeLoggerKind;
  vehicle: string;
  content: string;
}

function LubeLoggerPanel({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const units = useFleetUnits(fid);
  const [chosen, setChosen] = useState<File[]>([]);
  const [files, setFiles] = useState<LubeFile[]>([]);
  const [dateFormat, setDateFormat] = useState<(typeof LUBELOGGER_DATE_FORMATS)[number]>('MDY');
  const [preview, setPreview] = useState<LubeLoggerParseReply | null>(null);
  const [choices, setChoices] = useState<Record<string, VehicleChoice>>({});
  const [result, setResult] = useState<LubeLoggerCommitReply | null>(null);
  const parse = useParseLubeLogger(fid);
  const commit = useCommitLubeLogger(fid);

  const stale = () => {
    setPreview(null);
    setResult(null);
    parse.reset();
    commit.reset();
  };
  const choose = async (list: File[]) => {
    stale();
    setChosen(list);
    setFiles(
      await Promise.all(
        list.map(async (f) => ({
          name: f.name,
          kind: guessKind(f.name),
          vehicle: t('migration.defaultVehicle'),
          content: await f.text(),
        })),
      ),
    );
  };
  const patchFile = (i: number, patch: Partial<LubeFile>) => {
    stale();
    setFiles((list) => list.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  };
  const body = () => ({ files, date_format: dateFormat });
  const runPreview = () =>
    parse.mutate(body(), {
      onSuccess: (reply) => {
        setPreview(reply);
        setChoices(
          Object.fromEntries(
            reply.vehicles.map((v) => [
              v.vehicle,
              { target: v.unit === null ? 'new' : String(v.unit), name: v.vehicle },
            ]),
          ),
        );
      },
    });
  const targets = vehicleTargets(choices);
  const runImport = () => {
    if (targets?.length) commit.mutate({ ...body(), vehicles: targets }, { onSuccess: setResult });
  };
  const unitOptions = [
    { value: 'new', label: t('migration.createUnit') },
    ...(units.data?.units ?? []).map((u) => ({ value: String(u.id), label: u.nm })),
  ];
  const errorRows = preview?.rows.filter((r) => r.error) ?? [];

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="migration-lubelogger">
      <Stack gap="sm">
        <Title order={2} size="h4" id="migration-lubelogger">
          {t('migration.lubeTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('migration.lubeHint')}
        </Text>
        <FileInput
          label={t('migration.lubeFiles')}
          accept="text/csv,.csv"
          multiple
          value={chosen}
          onChange={choose}
          clearable
          data-testid="migration-lube-files"
        />
        {files.length > 0 && (
          <Stack gap="xs">
            {files.map((f, i) => (
              <Group
                key={`${f.name}-${i}`}
                gap="xs"
                align="flex-end"
                wrap="wrap"
                data-testid="migration-lube-file"
              >
                <Text size="sm" style={{ flex: '1 1 160px', overflowWrap: 'anywhere' }}>
                  {f.name}
                </Text>
                <Select
                  aria-label={t('migration.kind')}
                  label={i === 0 ? t('migration.kind') : undefined}
                  data={LUBELOGGER_KINDS.map((k) => ({ value: k, label: t(`migration.kinds.${k}`) }))}
                  value={f.kind}
                  onChange={(v) => v && patchFile(i, { kind: v as LubeLoggerKind })}
                  allowDeselect={false}
                  w={150}
                />
                <TextInput
                  aria-label={t('migration.vehicle')}
                  label={i === 0 ? t('migration.vehicle') : undefined}
                  value={f.vehicle}
                  onChange={(e) => patchFile(i, { vehicle: e.currentTarget.value })}
                  w={180}
                />
              </Group>
            ))}
            <Group align="flex-end">
              <Select
                label={t('migration.dateFormat')}
                data={LUBELOGGER_DATE_FORMATS.map((d) => ({
                  value: d,
                  label: t(`migration.dateFormats.${d}`),
                }))}
                value={dateFormat}
                onChange={(v) => {
                  if (!v) return;
                  stale();
                  setDateFormat(v as typeof dateFormat);
                }}
                allowDeselect={false}
                w={200}
              />
              <Button
                onClick={runPreview}
                loading={parse.isPending}
                disabled={files.some((f) => f.vehicle.trim() === '')}
                data-testid="migration-lube-preview"
              >
                {t('migration.preview')}
              </Button>
            </Group>
          </Stack>
        )}
        {parse.isError && (
          <Alert color="red" role="alert">
            {errorText(t, parse.error)}
          </Alert>
        )}
        {preview && !result && (
          <Stack gap="sm" data-testid="migration-lube-summary">
            <CountsTable
              rows={LUBELOGGER_KINDS.map((k) => ({
                key: k,
                values: [t(`migration.kinds.${k}`), preview.counts[k]],
              }))}
            />
            {errorRows.length > 0 && (
              <Alert color="red" role="alert" title={t('migration.rowErrors', { n: preview.errors })}>
                <Stack gap={2}>
                  {errorRows.slice(0, 20).map((r) => (
                    <Text size="sm" key={`${r.file}:${r.line}`} style={{ overflowWrap: 'anywhere' }}>
                      {r.file}:{r.line} — {r.error}
                    </Text>
                  ))}
                </Stack>
              </Alert>
            )}
            <Title order={3} size="h5">
              {t('migration.vehicles')}
            </Title>
            {preview.vehicles.map((v) => {
              const c = choices[v.vehicle] ?? { target: 'new', name: v.vehicle };
              const set = (patch: Partial<VehicleChoice>) =>
                setChoices((all) => ({ ...all, [v.vehicle]: { ...c, ...patch } }));
              return (
                <Group
                  key={v.vehicle}
                  gap="xs"
                  align="flex-end"
                  wrap="wrap"
                  data-testid="migration-lube-vehicle"
                >
                  <Text size="sm" style={{ flex: '1 1 160px', overflowWrap: 'anywhere' }}>
                    {v.vehicle} · {t('migration.rows', { n: v.rows })}
                  </Text>
                  <Select
                    aria-label={t('migration.unit')}
                    data={unitOptions}
                    value={c.target}
                    onChange={(value) => value && set({ target: value })}
                    allowDeselect={false}
                    searchable
                    w={200}
                  />
                  {c.target === 'new' && (
                    <TextInput
                      aria-label={t('migration.newUnitName')}
                      placeholder={t('migration.newUnitName')}
                      value={c.name}
                      onChange={(e) => set({ name: e.currentTarget.value })}
                      w={180}
                    />
                  )}
                </Group>
              );
            })}
            <Group>
              <Button
                onClick={runImport}
                loading={commit.isPending}
                disabled={preview.errors > 0 || !targets || targets.length === 0}
                data-testid="migration-lube-import"
              >
                {t('migration.importConfirm')}
              </Button>
            </Group>
          </Stack>
        )}
        {commit.isError && (
          <Alert color="red" role="alert">
            {errorText(t, commit.error)}
          </Alert>
        )}
        {result && (
          <Stack gap="xs" data-testid="migration-lube-result">
            <Alert color="green">{t('migration.importDone')}</Alert>
            <CountsTable
              rows={[
                { key: 'units', values: [t('migration.unitsCreated'), result.units_created] },
                { key: 'services', values: [t('migration.collection.services'), result.services] },
                { key: 'archive', values: [t('migration.collection.archive'), result.archive] },
                { key: 'fuel', values: [t('migration.collection.fuel_fillings'), result.fuel_fillings] },
                { key: 'odometer', values: [t('migration.kinds.odometer'), result.odometer] },
                { key: 'refused', values: [t('migration.odometerRefused'), result.odometer_refused] },
              ]}
            />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
