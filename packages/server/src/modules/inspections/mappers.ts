import {
  type Certification,
  type DefectSeverity,
  type InspectionDefectWire,
  type InspectionFormWire,
  type InspectionItem,
  type InspectionRowWire,
  type InspectionWire,
  inspectionState,
  priorityOfSeverity,
  worstSeverity,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database, InspectionDefectRow, InspectionFormRow, InspectionRow } from '../../db/schema.js';

/** Rows of inspection forms and inspections → core wire types (core contracts/inspections.ts). */

/** A stored result: the submit's answer with the attachment id of its image. */
export interface StoredResult {
  i: number;
  ok: boolean | null;
  sev: DefectSeverity | null;
  v: number | null;
  tx: string | null;
  img: number | null;
}

export const parseItems = (text: string): InspectionItem[] => JSON.parse(text) as InspectionItem[];

export function formToWire(row: InspectionFormRow, used: number): InspectionFormWire {
  return {
    id: row.id,
    n: row.name,
    bi: row.builtin === 'dvir' ? 'dvir' : null,
    items: parseItems(row.items),
    used,
    ua: row.updated_at,
  };
}

type Person = { id: number; nm: string } | null;

/** Names of users by id (full name, else login name). */
export async function peopleOf(db: Kysely<Database>, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name', 'full_name'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r.full_name || r.name]));
}

const personOf = (people: Map<number, string>, id: number | null): Person =>
  id === null ? null : { id, nm: people.get(id) ?? '' };

/** Names of the objects (units, trailers) of inspection rows, keyed `u:1`, `t:2`. */
export async function objectNamesOf(
  db: Kysely<Database>,
  fleetId: number,
  rows: readonly { object_type: string; object_id: number }[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [type, table] of [
    ['u', 'units'],
    ['t', 'trailers'],
  ] as const) {
    const ids = [...new Set(rows.filter((r) => r.object_type === type).map((r) => r.object_id))];
    if (ids.length === 0) continue;
    const named = await db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', ids)
      .execute();
    for (const n of named) out.set(`${type}:${n.id}`, n.name);
  }
  return out;
}

export interface RowContext {
  people: Map<number, string>;
  objects: Map<string, string>;
  defects: InspectionDefectRow[];
}

export function rowToWire(row: InspectionRow, c: RowContext): InspectionRowWire {
  const defects = c.defects.filter((d) => d.inspection_id === row.id);
  return {
    id: row.id,
    fm: row.form_id,
    fn: row.form_name,
    bi: row.builtin === 'dvir' ? 'dvir' : null,
    ot: row.object_type as 'u' | 't',
    oi: row.object_id,
    on: c.objects.get(`${row.object_type}:${row.object_id}`) ?? '',
    at: row.submitted_at,
    by: personOf(c.people, row.submitter_id),
    mi: row.mileage,
    eh: row.engine_hours,
    nd: row.defects,
    ws: worstSeverity(defects.map((d) => d.severity as DefectSeverity)),
    st: inspectionState(defects.map((d) => ({ cert: d.cert as Certification | null }))),
    ak: row.ack_at === null ? null : { by: personOf(c.people, row.ack_by), at: row.ack_at },
  };
}

export function defectToWire(d: InspectionDefectRow, people: Map<number, string>): InspectionDefectWire {
  const sev = d.severity as DefectSeverity;
  return {
    id: d.id,
    i: d.item,
    sev,
    pr: priorityOfSeverity(sev) as InspectionDefectWire['pr'],
    iss: d.issue_id,
    cert: d.cert as Certification | null,
    cn: d.cert_note,
    cb: d.cert_at === null ? null : personOf(people, d.cert_by),
    ca: d.cert_at,
    csig: d.cert_signature_id,
  };
}

export function inspectionToWire(row: InspectionRow, c: RowContext): InspectionWire {
  const defects = c.defects.filter((d) => d.inspection_id === row.id).sort((a, b) => a.item - b.item);
  return {
    ...rowToWire(row, c),
    note: row.note,
    items: parseItems(row.items),
    res: JSON.parse(row.results) as StoredResult[],
    sig: row.signature_id,
    defects: defects.map((d) => defectToWire(d, c.people)),
  };
}
