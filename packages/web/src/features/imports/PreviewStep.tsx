import {
  checkImportRows,
  formatNumber,
  IMPORT_COLUMNS,
  type ImportCells,
  type ImportKind,
  type ImportResultReply,
  localDate,
} from '@fleetkeep/core';
import { Alert, Anchor, Box, Button, Group, List, Stack, Switch, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIntervals, useLibrary, useTrailers, useUnits } from '../../lib/fleetData.ts';
import { keysForEvent } from '../../lib/queryKeys.ts';
import { readRefusal, rowErrors } from '../../lib/refusal.ts';
import { useSession } from '../../lib/session.ts';
import { importRows } from './api.ts';
import { listPath } from './ChooseStep.tsx';
import type { ImportRowsState } from './ImportScreen.tsx';
import { ImportProgressBar } from './ProgressBar.tsx';
import { useImportProgress } from './progress.ts';
import { reasonText } from './reasons.ts';

const ROW_HEIGHT = 36;
/** Counts as spec §9 writes numbers (space group separator). */
const count = (n: number) => formatNumber(n, { decimals: 0 });
/** The live-event collection each kind writes (its lists reload after an import). */
const COLLECTIONS = {
  intervals: 'interval',
  services: 'service',
  fuelfillings: 'fuelfilling',
  lineitems: 'lineitem',
  units: 'avl_unit',
  issues: 'issue',
} as const satisfies Record<ImportKind, Parameters<typeof keysForEvent>[0]>;
const CELL_WIDTH = 160;

interface Outcome {
  result?: ImportResultReply;
  skipped: number;
  failed: { row: number; message: string }[];
}

/**
 * The preview of an import: the mapped rows in a virtualised, editable table; each cell
 * is checked by core `checkImportRows` (the rules the server applies again), invalid ones red with the
 * reason on hover; then the import with its progress, and the result (created, skipped, failed).
 */
export function PreviewStep({ kind, state }: { kind: ImportKind; state: ImportRowsState }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const units = useUnits(fid);
  const trailers = useTrailers(fid);
  const intervals = useIntervals(fid);
  const library = useLibrary(fid);
  const [rows, setRows] = useState<ImportCells[]>(state.rows);
  const [skip, setSkip] = useState(false);
  const { progress, begin, uploaded, end } = useImportProgress();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const columns = IMPORT_COLUMNS[kind].filter((c) => c.key in (state.rows[0] ?? {}));
  const ctx = useMemo(
    () => ({
      dateFormat: state.dateFormat,
      today: localDate(fleet?.tz ?? 0, Math.floor(Date.now() / 1000)),
      units: (units.data ?? []).map((u) => ({ id: u.id, n: u.nm })),
      fleetId: fid ?? 0,
      intervalNames: (intervals.data ?? []).map((i) => i.n),
      lineItems: (library.data ?? []).map((i) => ({ n: i.n, t: i.t })),
      // The units import: the fleet's device ids, the unit types, mileage in the fleet's distance unit.
      deviceIds: (units.data ?? []).map((u) => u.uid),
      unitTypes: auth?.unit_types ?? [],
      ms: fleet?.ms,
      // The issues import: trailers by name too.
      trailers: (trailers.data ?? []).map((p) => ({ id: p.id, n: p.n })),
    }),
    [
      state.dateFormat,
      fleet?.tz,
      fleet?.ms,
      units.data,
      trailers.data,
      intervals.data,
      library.data,
      fid,
      auth?.unit_types,
    ],
  );
  const check = useMemo(() => checkImportRows(kind, rows, ctx), [kind, rows, ctx]);
  const issues = useMemo(() => {
    const m = new Map<string, string>();
    for (const i of check.issues) if (!m.has(`${i.row}.${i.field}`)) m.set(`${i.row}.${i.field}`, i.key);
    return m;
  }, [check]);
  const badRows = useMemo(() => new Set(check.issues.map((i) => i.row)), [check]);
  // Cells kept with a word (a VIN whose check digit does not match): yellow, the word on hover.
  const warnings = useMemo(() => {
    const m = new Map<string, string>();
    for (const w of check.warnings) if (!m.has(`${w.row}.${w.field}`)) m.set(`${w.row}.${w.field}`, w.key);
    return m;
  }, [check]);
  const warnedRows = useMemo(() => new Set(check.warnings.map((w) => w.row)).size, [check]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });

  const edit = (row: number, key: string, value: string) =>
    setRows((old) => old.map((r, i) => (i === row ? { ...r, [key]: value } : r)));

  const run = async () => {
    if (fid === null) return;
    const sent = skip ? rows.filter((_, i) => !badRows.has(i)) : rows;
    // The server reports rows checked and written under this run's name.
    const id = begin();
    try {
      const body = { date_format: state.dateFormat, rows: sent, progress: id };
      const result = await importRows(fid, kind, body, uploaded);
      setOutcome({ result, skipped: rows.length - sent.length, failed: [] });
      // The imported records join the lists (spec §7: the client registers them).
      for (const key of keysForEvent(COLLECTIONS[kind], fid))
        await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      setOutcome({ skipped: 0, failed: rowErrors(readRefusal(e)) });
    } finally {
      end();
    }
  };

  const reason = (message: string) => reasonText(t, i18n, message);

  if (outcome)
    return (
      <Stack gap="md" p="md" data-testid="import-result">
        <Title order={2}>{t('imports.result.title')}</Title>
        <Text data-testid="import-created">
          {t('imports.result.created', { n: count(outcome.result?.created ?? 0) })}
        </Text>
        <Text data-testid="import-skipped">{t('imports.result.skipped', { n: count(outcome.skipped) })}</Text>
        {outcome.failed.length > 0 && (
          <Text data-testid="import-failed" c="red">
            {t('imports.result.failed', { n: count(outcome.failed.length) })}
          </Text>
        )}
        {outcome.failed.length > 0 && (
          <List size="sm">
            {outcome.failed.slice(0, 100).map((f) => (
              <List.Item key={`${f.row}:${f.message}`}>
                {f.row >= 0 ? `${t('imports.row', { n: f.row + 1 })}: ` : ''}
                {reason(f.message)}
              </List.Item>
            ))}
          </List>
        )}
        <Anchor component={Link} to={listPath(kind)} data-testid="import-open-list">
          {t('imports.result.open')}
        </Anchor>
      </Stack>
    );

  return (
    <Stack gap="sm" p="md">
      <Title order={2}>{t(`imports.title.${kind}`)}</Title>
      <Text size="sm" c="dimmed">
        {state.fileName}
      </Text>
      <Group gap="lg">
        <Text data-testid="import-row-count">{t('imports.rows', { n: count(rows.length) })}</Text>
        <Text data-testid="import-bad-count" c={badRows.size ? 'red' : undefined}>
          {t('imports.problems', { n: count(badRows.size) })}
        </Text>
        {warnedRows > 0 && (
          <Text data-testid="import-warning-count" c="yellow.8">
            {t('imports.warnings', { n: count(warnedRows) })}
          </Text>
        )}
        <Switch
          label={t('imports.skipInvalid')}
          checked={skip}
          onChange={(e) => setSkip(e.currentTarget.checked)}
        />
      </Group>
      <Box
        ref={scroller}
        data-testid="import-preview"
        style={{ height: '60vh', overflow: 'auto', border: '1px solid var(--mantine-color-default-border)' }}
      >
        <div style={{ width: (columns.length + 1) * CELL_WIDTH, position: 'relative' }}>
          <div
            style={{
              display: 'flex',
              position: 'sticky',
              top: 0,
              zIndex: 1,
              background: 'var(--mantine-color-body)',
            }}
          >
            <div style={{ width: 60, padding: 6, fontWeight: 600 }}>#</div>
            {columns.map((c) => (
              <div key={c.key} style={{ width: CELL_WIDTH, padding: 6, fontWeight: 600 }}>
                {t(`imports.field.${c.key}`)}
                {c.required ? ' *' : ''}
              </div>
            ))}
          </div>
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((v) => (
              <div
                key={v.key}
                style={{
                  display: 'flex',
                  position: 'absolute',
                  top: v.start,
                  height: ROW_HEIGHT,
                  width: '100%',
                }}
              >
                <div style={{ width: 60, padding: 6, color: badRows.has(v.index) ? 'red' : undefined }}>
                  {v.index + 1}
                </div>
                {columns.map((c) => {
                  const issue = issues.get(`${v.index}.${c.key}`);
                  const warning = issue ? undefined : warnings.get(`${v.index}.${c.key}`);
                  return (
                    <input
                      key={c.key}
                      data-testid={`cell-${v.index}-${c.key}`}
                      aria-label={`${t(`imports.field.${c.key}`)} ${v.index + 1}`}
                      aria-invalid={issue ? true : undefined}
                      title={issue ? t(issue) : warning ? t(warning) : undefined}
                      data-warning={warning ? true : undefined}
                      value={rows[v.index]?.[c.key] ?? ''}
                      onChange={(e) => edit(v.index, c.key, e.currentTarget.value)}
                      style={{
                        width: CELL_WIDTH - 4,
                        height: ROW_HEIGHT - 4,
                        margin: 2,
                        border: issue
                          ? '1px solid var(--mantine-color-red-6)'
                          : warning
                            ? '1px solid var(--mantine-color-yellow-6)'
                            : '1px solid var(--mantine-color-default-border)',
                        background: issue
                          ? 'var(--mantine-color-red-light)'
                          : warning
                            ? 'var(--mantine-color-yellow-light)'
                            : 'transparent',
                        color: 'inherit',
                        padding: '0 6px',
                      }}
                    />
                  );
                })}
              </div>
            ))}
          </div>
        </div>
      </Box>
      {progress !== null && <ImportProgressBar progress={progress} />}
      {check.issues.length > 0 && !skip && <Alert color="red">{t('imports.fixFirst')}</Alert>}
      <Group>
        <Button component={Link} to={listPath(kind)} variant="default">
          {t('imports.cancel')}
        </Button>
        <Button
          data-testid="import-run"
          loading={progress !== null}
          disabled={(check.issues.length > 0 && !skip) || (skip && badRows.size === rows.length)}
          onClick={() => void run()}
        >
          {t('imports.import')}
        </Button>
      </Group>
    </Stack>
  );
}
