/**
 * The reasons of the import rules (core imports.ts, import-units.ts) and of a refused file, as i18n keys:
 * the web shows their translation, the server sends the key as the message.
 */

/** Reasons, as i18n keys (`imports.err.*`). */
export const ImportError = {
  required: 'imports.err.required',
  integer: 'imports.err.integer',
  decimal: 'imports.err.decimal',
  positive: 'imports.err.positive',
  date: 'imports.err.date',
  month: 'imports.err.month',
  future: 'imports.err.future',
  endBeforeStart: 'imports.err.endBeforeStart',
  unit: 'imports.err.unit',
  tooLong: 'imports.err.tooLong',
  timeFrequency: 'imports.err.timeFrequency',
  timeUnit: 'imports.err.timeUnit',
  lineType: 'imports.err.lineType',
  duplicate: 'imports.err.duplicate',
  noFrequency: 'imports.err.noFrequency',
  priceOrTotal: 'imports.err.priceOrTotal',
} as const;

/**
 * Why a file cannot be read, as i18n keys (`imports.file.*`): the parse call's refusals (its `reason` and
 * detail message), and the browser's own two, a file over IMPORT_FILE_BYTES_MAX and an upload that failed.
 */
export const ImportFileError = {
  empty: 'imports.file.empty',
  binary: 'imports.file.binary',
  tooManyRows: 'imports.file.tooManyRows',
  tooManyColumns: 'imports.file.tooManyColumns',
  cellTooLong: 'imports.file.cellTooLong',
  badXlsx: 'imports.file.badXlsx',
  zipBomb: 'imports.file.zipBomb',
  formula: 'imports.file.formula',
  sheet: 'imports.file.sheet',
  tooLarge: 'imports.file.tooLarge',
  failed: 'imports.file.failed',
} as const;
