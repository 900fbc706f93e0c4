import { refusalDetails } from '@fleetkeep/core';
import { ApiError } from './api.ts';

/**
 * The one reader of a refused call (DESIGN §5 `{error, reason, details?}`): its `details` are the core
 * contract `RefusalDetails`, field issues of a 400 (`{field: 'body.services.3.c', message, row?}`) or
 * record refusals of a 409 (`{id?, kind?, row?, field?, reason, value?, values?}`). Both read as one
 * list of issues that forms map onto fields (lib/fieldErrors.ts), batch screens onto rows, and
 * dialogs into a message. Pure.
 */

/** One entry of `details` as a screen reads it. */
export interface ServerIssue {
  /** Where the value was: 'body', 'querystring', 'params' ('' when the entry names no field). */
  source: string;
  /** The path inside it, the batch list and row taken off: ['n'], ['li', '0', 'q']. */
  path: string[];
  /** The batch row: the index after the batch list (`body.services.3.c`), else the entry's `row`. */
  row: number | null;
  /** The record a refusal names. */
  id: number | null;
  /** What is wrong: a field issue's message or a refusal's reason. */
  message: string;
  /** A stored value that stands in the way (a custom field option still held). */
  value: string | null;
  /** How many stored values the refusal concerns (a custom field's values in use). */
  values: number | null;
}

/** A refused call as screens show it: its code, its reason and the issues of its details. */
export interface Refusal {
  /** The error code (spec §8, DESIGN §5); null for a failure that is no ApiError. */
  code: number | null;
  reason: string;
  issues: ServerIssue[];
}

const isIndex = (s: string | undefined): s is string => s !== undefined && /^\d+$/.test(s);

/**
 * Reads `details` (anything outside the contract gives no issues). `batchList` names the body's list of
 * a batch call (`services`, `rows`, `intervals`): `body.services.3.li.0.q` becomes row 3, path
 * ['li', '0', 'q'].
 */
export function serverIssues(details: unknown, batchList?: string): ServerIssue[] {
  const parsed = refusalDetails.safeParse(details);
  if (!parsed.success || !Array.isArray(parsed.data)) return [];
  return parsed.data.map((d): ServerIssue => {
    const parts = d.field ? d.field.split('.') : [];
    const [source = '', ...rest] = parts;
    let path = rest;
    let row = d.row ?? null;
    if (batchList !== undefined && source === 'body' && path[0] === batchList && isIndex(path[1])) {
      row = Number(path[1]);
      path = path.slice(2);
    }
    const refusal = 'reason' in d ? d : undefined;
    return {
      source,
      path,
      row,
      id: refusal?.id ?? null,
      message: 'message' in d ? d.message : d.reason,
      value: refusal?.value ?? null,
      values: refusal?.values ?? null,
    };
  });
}

/** Reads a failure: an ApiError's code, reason and issues; anything else is its text with no code. */
export function readRefusal(err: unknown, batchList?: string): Refusal {
  if (err instanceof ApiError)
    return { code: err.code, reason: err.reason, issues: serverIssues(err.details, batchList) };
  return { code: null, reason: String(err), issues: [] };
}

/** The rows a refused batch names with their messages (row -1: the whole call), else its reason. */
export function rowErrors(refusal: Refusal): { row: number; message: string }[] {
  if (refusal.issues.length === 0) return [{ row: -1, message: refusal.reason }];
  return refusal.issues.map((i) => ({ row: i.row ?? -1, message: i.message }));
}

/** The words of a refusal: its first issue's message, else its reason. */
export function refusalMessage(refusal: Refusal): string {
  return refusal.issues[0]?.message ?? refusal.reason;
}
