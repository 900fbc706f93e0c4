import {
  type FieldIssue,
  type FleetTransferDocument,
  SERVICE_ATTACHMENT_BYTES_MAX,
  SERVICE_ATTACHMENTS_MAX,
} from '@fleetkeep/core';
import { isFinished } from './records.js';
import { workshopIssues } from './workshop-checks.js';

/**
 * What the import checks beyond the document's schema (core contracts/fleet-transfer.ts), before it
 * writes anything: ids unique per collection, references between collections, attachment caps.
 */

type Doc = FleetTransferDocument;
type ObjType = 'u' | 'd' | 't';

/** Checks what the schema cannot: unique ids, references between collections, attachment caps. */
export function documentIssues(doc: Doc, prefix: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const ids = (key: keyof Doc, list: { id: number }[]) => {
    const seen = new Set<number>();
    list.forEach((r, i) => {
      if (seen.has(r.id)) issues.push({ field: `${prefix}${String(key)}.${i}.id`, message: 'Duplicate id' });
      seen.add(r.id);
    });
    return seen;
  };
  const units = ids('units', doc.units);
  const objects: Record<ObjType, Set<number>> = {
    u: units,
    d: ids('drivers', doc.drivers),
    t: ids('trailers', doc.trailers),
  };
  const intervals = ids('intervals', doc.intervals);
  const assignments = ids('assignments', doc.assignments);
  const fieldsById = new Map(doc.custom_fields.map((f) => [f.id, f.owner_type]));
  ids('custom_fields', doc.custom_fields);
  ids('line_items', doc.line_items);
  const serviceIds = new Set<number>();
  const assignmentOf = new Map(doc.assignments.map((a) => [a.id, a]));
  const checkCf = (cf: { id: number }[], owner: string, field: string) => {
    cf.forEach((v, j) => {
      if (fieldsById.get(v.id) !== owner)
        issues.push({ field: `${field}.cf.${j}.id`, message: 'Unknown custom field' });
    });
  };
  for (const [i, u] of doc.units.entries()) checkCf(u.cf, 'u', `${prefix}units.${i}`);
  for (const [i, p] of doc.drivers.entries()) checkCf(p.cf, 'd', `${prefix}drivers.${i}`);
  for (const [i, p] of doc.trailers.entries()) checkCf(p.cf, 't', `${prefix}trailers.${i}`);
  doc.assignments.forEach((a, i) => {
    if (!intervals.has(a.interval_id))
      issues.push({ field: `${prefix}assignments.${i}.interval_id`, message: 'Unknown interval' });
    if (!objects[a.object_type].has(a.object_id))
      issues.push({ field: `${prefix}assignments.${i}.object_id`, message: 'Unknown object' });
  });
  const checkFiles = (files: { data: string }[], field: string) => {
    let bytes = 0;
    for (const f of files) bytes += Buffer.byteLength(f.data, 'base64');
    if (files.length > SERVICE_ATTACHMENTS_MAX || bytes > SERVICE_ATTACHMENT_BYTES_MAX)
      issues.push({
        field: `${field}.attachments`,
        message: `At most ${SERVICE_ATTACHMENTS_MAX} files and ${SERVICE_ATTACHMENT_BYTES_MAX} bytes`,
      });
    files.forEach((f, j) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data) || f.data.length % 4 !== 0)
        issues.push({ field: `${field}.attachments.${j}.data`, message: 'Not base64' });
    });
  };
  for (const key of ['services', 'archive'] as const) {
    doc[key].forEach((s, i) => {
      const field = `${prefix}${key}.${i}`;
      if (serviceIds.has(s.id)) issues.push({ field: `${field}.id`, message: 'Duplicate id' });
      serviceIds.add(s.id);
      if (isFinished(s.f) !== (key === 'archive'))
        issues.push({ field: `${field}.f`, message: key === 'archive' ? 'Not finished' : 'Finished' });
      if (!objects[s.object_type].has(s.object_id))
        issues.push({ field: `${field}.object_id`, message: 'Unknown object' });
      if (s.interval_id !== null && !intervals.has(s.interval_id))
        issues.push({ field: `${field}.interval_id`, message: 'Unknown interval' });
      if (s.assignment_id !== null) {
        const a = assignmentOf.get(s.assignment_id);
        if (!assignments.has(s.assignment_id) || !a)
          issues.push({ field: `${field}.assignment_id`, message: 'Unknown assignment' });
        else if (
          a.object_type !== s.object_type ||
          a.object_id !== s.object_id ||
          a.interval_id !== s.interval_id
        )
          issues.push({
            field: `${field}.assignment_id`,
            message: 'Assignment of another object or interval',
          });
      }
      checkCf(s.cf, 's', field);
      checkFiles(s.attachments, field);
    });
  }
  doc.fuel_fillings.forEach((f, i) => {
    const field = `${prefix}fuel_fillings.${i}`;
    if (!units.has(f.unit_id)) issues.push({ field: `${field}.unit_id`, message: 'Unknown unit' });
    checkCf(f.cf, 'f', field);
    checkFiles(f.attachments, field);
  });
  ids('meter_readings', doc.meter_readings);
  doc.meter_readings.forEach((r, i) => {
    if (!units.has(r.unit_id))
      issues.push({ field: `${prefix}meter_readings.${i}.unit_id`, message: 'Unknown unit' });
  });
  ids('counter_corrections', doc.counter_corrections);
  doc.counter_corrections.forEach((c, i) => {
    if (!units.has(c.unit_id))
      issues.push({ field: `${prefix}counter_corrections.${i}.unit_id`, message: 'Unknown unit' });
  });
  ids('notification_setups', doc.notification_setups);
  ids('issues', doc.issues);
  doc.issues.forEach((x, i) => {
    const field = `${prefix}issues.${i}`;
    if (!objects[x.object_type].has(x.object_id))
      issues.push({ field: `${field}.object_id`, message: 'Unknown object' });
    checkFiles(x.attachments, field);
  });
  issues.push(...workshopIssues(doc, prefix, { objects: { u: units, t: objects.t }, services: serviceIds }));
  return issues;
}
