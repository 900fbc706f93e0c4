import {
  guessImportMapping,
  IMPORT_COLUMNS,
  IMPORT_DATE_FORMATS,
  IMPORT_DELIMITERS,
  IMPORT_ENCODINGS,
  IMPORT_FILE_BYTES_MAX,
  IMPORT_MAPPING_TITLE_MAX,
  type ImportDateFormat,
  type ImportDelimiter,
  type ImportEncoding,
  ImportFileError,
  type ImportKind,
  type ImportParseReply,
  mapImportRows,
} from '@fleetkeep/core';
import {
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  NativeSelect,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { saveSettings, useSession } from '../../lib/session.ts';
import { type ParseOptions, parseFile } from './api.ts';
import { reasonText, refusalKey } from './reasons.ts';

const DELIMITER_NAMES: Record<ImportDelimiter, string> = {
  ',': 'comma',
  ';': 'semicolon',
  '\t': 'tab',
  '|': 'pipe',
};
const LIST_PATHS: Record<ImportKind, string> = {
  intervals: '/intervals',
  services: '/services',
  fuelfillings: '/fuelfillings',
  lineitems: '/lineitems',
  // Units are listed among the service objects (docs/product.md "The vehicle profile").
  units: '/items',
  issues: '/issues',
};
export const listPath = (kind: ImportKind) => LIST_PATHS[kind];

/**
 * The first step of an import: the file is read on the server (delimiter and encoding
 * detected, or chosen; an XLSX's sheet), then the person picks the date format, whether the first line
 * is a header, and which column holds each field (required ones marked); the mapping is remembered per
 * user (setting `imports`).
 */
export function ChooseStep({ kind, file: initial }: { kind: ImportKind; file: File }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? 0;
  const settings = auth?.model.s;
  const remembered = settings?.imports?.[kind] ?? {};
  const userFormat = settings?.dateFormat as ImportDateFormat | undefined;

  const [file, setFile] = useState(initial);
  const [options, setOptions] = useState<ParseOptions>({});
  const [parsed, setParsed] = useState<ImportParseReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [header, setHeader] = useState(true);
  const [dateFormat, setDateFormat] = useState<ImportDateFormat>(
    userFormat && (IMPORT_DATE_FORMATS as readonly string[]).includes(userFormat) ? userFormat : 'YYYY-MM-DD',
  );
  const [mapping, setMapping] = useState<Record<string, number>>({});

  useEffect(() => {
    let live = true;
    setError(null);
    if (file.size > IMPORT_FILE_BYTES_MAX) {
      setParsed(null);
      setError(ImportFileError.tooLarge);
      return;
    }
    setProgress(0);
    parseFile(fid, kind, file, options, (s) => live && setProgress(s))
      .then((reply) => {
        if (!live) return;
        setParsed(reply);
        setMapping(guessImportMapping(kind, reply.rows[0] ?? [], remembered));
      })
      .catch((e) => {
        if (!live) return;
        setParsed(null);
        if (e instanceof ApiError && e.code === 2) setError(ImportFileError.tooLarge);
        else setError(refusalKey(e));
      })
      .finally(() => live && setProgress(null));
    return () => {
      live = false;
    };
    // The mapping is guessed once per parse; `remembered` and `t` do not re-read the file.
  }, [fid, kind, file, options]);

  const titles = parsed?.rows[0] ?? [];
  const width = Math.max(0, ...(parsed?.rows ?? []).slice(0, 50).map((r) => r.length));
  const columnOptions = useMemo(
    () => [
      { value: '', label: t('imports.notMapped') },
      ...Array.from({ length: width }, (_, i) => ({
        value: String(i),
        label: header && titles[i] ? titles[i] : t('imports.column', { n: i + 1 }),
      })),
    ],
    [width, header, titles, t],
  );
  const rows = useMemo(
    () => (parsed ? mapImportRows(parsed.rows, mapping, header) : []),
    [parsed, mapping, header],
  );
  const missing = IMPORT_COLUMNS[kind].filter((c) => c.required && mapping[c.key] === undefined);

  const next = async () => {
    if (header) {
      const titled = Object.fromEntries(
        Object.entries(mapping).flatMap(([k, i]) =>
          titles[i] ? [[k, titles[i].slice(0, IMPORT_MAPPING_TITLE_MAX)]] : [],
        ),
      );
      // Remembering the mapping is a convenience: a failure does not stop the import.
      await saveSettings({ imports: { [kind]: titled } }).catch(() => undefined);
    }
    navigate(`/${kind}/import`, { replace: true, state: { rows, dateFormat, fileName: file.name } });
  };

  return (
    <Stack gap="md" p="md" maw={960}>
      <Title order={2}>{t(`imports.title.${kind}`)}</Title>
      <Group gap="sm">
        <Text fw={500} data-testid="import-file-name">
          {file.name}
        </Text>
        <FileButton
          onChange={(f) => {
            if (!f) return;
            setFile(f);
            setOptions({});
          }}
          accept=".csv,.txt,.xlsx,text/csv"
        >
          {(props) => (
            <Button variant="default" size="xs" {...props}>
              {t('imports.chooseFile')}
            </Button>
          )}
        </FileButton>
      </Group>
      {progress !== null && <Progress value={progress * 100} aria-label={t('imports.uploading')} />}
      {error && (
        <Alert color="red" data-testid="import-file-error">
          {reasonText(t, i18n, error)}
        </Alert>
      )}
      {parsed && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {parsed.format === 'csv' ? (
              <>
                <NativeSelect
                  label={t('imports.delimiter')}
                  value={options.delimiter ?? ''}
                  data={[
                    {
                      value: '',
                      label: t('imports.auto', {
                        value: t(`imports.delimiters.${DELIMITER_NAMES[parsed.delimiter ?? ',']}`),
                      }),
                    },
                    ...IMPORT_DELIMITERS.map((d) => ({
                      value: d,
                      label: t(`imports.delimiters.${DELIMITER_NAMES[d]}`),
                    })),
                  ]}
                  onChange={(e) =>
                    setOptions({
                      ...options,
                      delimiter: (e.currentTarget.value || undefined) as ImportDelimiter,
                    })
                  }
                />
                <NativeSelect
                  label={t('imports.encoding')}
                  value={options.encoding ?? ''}
                  data={[
                    { value: '', label: t('imports.auto', { value: parsed.encoding ?? '' }) },
                    ...IMPORT_ENCODINGS.map((e) => ({ value: e, label: e })),
                  ]}
                  onChange={(e) =>
                    setOptions({
                      ...options,
                      encoding: (e.currentTarget.value || undefined) as ImportEncoding,
                    })
                  }
                />
              </>
            ) : (
              <NativeSelect
                label={t('imports.sheet')}
                value={parsed.sheet ?? ''}
                data={parsed.sheets}
                onChange={(e) => setOptions({ ...options, sheet: e.currentTarget.value })}
              />
            )}
            <NativeSelect
              label={t('imports.dateFormat')}
              value={dateFormat}
              data={[...IMPORT_DATE_FORMATS]}
              onChange={(e) => setDateFormat(e.currentTarget.value as ImportDateFormat)}
            />
          </SimpleGrid>
          <Checkbox
            label={t('imports.header')}
            checked={header}
            onChange={(e) => setHeader(e.currentTarget.checked)}
          />
          <Title order={4}>{t('imports.mapping')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="import-mapping">
            {IMPORT_COLUMNS[kind].map((c) => (
              <NativeSelect
                key={c.key}
                label={t(`imports.field.${c.key}`)}
                withAsterisk={c.required}
                error={c.required && mapping[c.key] === undefined ? t('imports.err.required') : undefined}
                value={mapping[c.key] === undefined ? '' : String(mapping[c.key])}
                data={columnOptions}
                onChange={(e) => {
                  const { [c.key]: _, ...rest } = mapping;
                  const v = e.currentTarget.value;
                  setMapping(v === '' ? rest : { ...rest, [c.key]: Number(v) });
                }}
              />
            ))}
          </SimpleGrid>
          {rows.length === 0 && <Alert color="yellow">{t('imports.file.noRows')}</Alert>}
          <Group>
            <Button variant="default" onClick={() => navigate(listPath(kind))}>
              {t('imports.cancel')}
            </Button>
            <Button disabled={missing.length > 0 || rows.length === 0} onClick={() => void next()}>
              {t('imports.preview')}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
