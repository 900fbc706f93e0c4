import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Bound parameters per statement: under SQLite's 32,766 and PostgreSQL's 65,535, so that one full chunk
 * of any table fits either dialect.
 */
export const MAX_PARAMETERS = 30_000;
/**
 * Rows per statement: past a few hundred rows a longer statement saves nothing more, while preparing
 * (SQLite) or parsing (PostgreSQL) its text grows with it; measured 11.4k events in 5,000-row statements
 * slower than in 500-row ones on both.
 */
export const MAX_ROWS = 500;

/** The dialect's placeholder of the k-th parameter (db/dialect `placeholder`: `?` or `$k`). */
export type Placeholder = (k: number) => string;

export interface BulkInsert {
  table: string;
  columns: readonly string[];
  /** `on conflict do nothing`: a row a unique index refuses is skipped (and not returned). */
  skipConflicts?: boolean;
  /**
   * The inserted rows come back: `true` all their columns (`returning *`), a list only those. A writer
   * that has the other columns at hand names the few it lacks: on SQLite, better-sqlite3 building a
   * wide row object per row cost eight times the insert itself.
   */
  returning?: boolean | readonly string[];
}

/**
 * Inserts rows (values in `columns` order) with multi-row `insert … values` statements whose SQL text is
 * built here once per chunk size, not through Kysely's query builder: building and compiling a
 * 1,000-row insert node by node cost more than SQLite's own work for it. Every full chunk
 * has the same text, so SQLite reuses one prepared statement (db/database.ts `cachedStatements`). Used
 * where many rows go in at once: the status engine's services, the outbox's event rows, ingestion's
 * positions.
 */
export async function bulkInsert<R>(
  db: Kysely<Database>,
  placeholder: Placeholder,
  spec: BulkInsert,
  rows: readonly (readonly unknown[])[],
): Promise<R[]> {
  const width = spec.columns.length;
  const perChunk = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / width)));
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += perChunk) {
    const part = rows.slice(i, i + perChunk);
    const parameters: unknown[] = [];
    for (const row of part) for (let c = 0; c < width; c++) parameters.push(row[c]);
    const result = await db.executeQuery<R>(
      CompiledQuery.raw(textFor(placeholder, spec, part.length), parameters),
    );
    if (spec.returning) for (const r of result.rows) out.push(r);
  }
  return out;
}

/**
 * Statement texts by dialect, table, columns and row count, kept for the life of the process: a hot
 * writer (ingestion's group commit, a few rows at a time) builds each text once. The keys are bounded
 * by the writers' fixed column lists times MAX_ROWS row counts.
 */
const texts = new Map<string, string>();

function textFor(placeholder: Placeholder, spec: BulkInsert, n: number): string {
  const key = `${placeholder(2)}|${spec.table}|${spec.columns.join(',')}|${spec.skipConflicts ? 1 : 0}|${returningText(spec.returning)}|${n}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = insertText(placeholder, spec, n);
    texts.set(key, text);
  }
  return text;
}

function insertText(placeholder: Placeholder, spec: BulkInsert, n: number): string {
  const width = spec.columns.length;
  const tuples: string[] = [];
  let k = 0;
  for (let r = 0; r < n; r++) {
    const values: string[] = [];
    for (let c = 0; c < width; c++) values.push(placeholder(++k));
    tuples.push(`(${values.join(', ')})`);
  }
  const columns = spec.columns.map((c) => `"${c}"`).join(', ');
  return `insert into "${spec.table}" (${columns}) values ${tuples.join(', ')}${
    spec.skipConflicts ? ' on conflict do nothing' : ''
  }${returningText(spec.returning)}`;
}

function returningText(returning: BulkInsert['returning']): string {
  if (!returning) return '';
  if (returning === true) return ' returning *';
  return ` returning ${returning.map((c) => `"${c}"`).join(', ')}`;
}
