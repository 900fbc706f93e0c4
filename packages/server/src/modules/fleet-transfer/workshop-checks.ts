import type { FieldIssue, FleetTransferDocument } from '@fleetkeep/core';

/**
 * What the import checks of the workshop records (version 6) beyond their schema, before it writes
 * anything (checks.ts): unique ids, their objects, forms, issues and services in the document, an image
 * index within the inspection's attachments, base64 files.
 */
export function workshopIssues(
  doc: FleetTransferDocument,
  prefix: string,
  known: { objects: Record<'u' | 't', Set<number>>; services: Set<number> },
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const ids = (key: string, list: { id: number }[]) => {
    const seen = new Set<number>();
    list.forEach((r, i) => {
      if (seen.has(r.id)) issues.push({ field: `${prefix}${key}.${i}.id`, message: 'Duplicate id' });
      seen.add(r.id);
    });
    return seen;
  };
  const issueIds = new Set(doc.issues.map((x) => x.id));
  const forms = ids('inspection_forms', doc.inspection_forms);
  ids('inspections', doc.inspections);
  doc.inspections.forEach((x, i) => {
    const field = `${prefix}inspections.${i}`;
    if (!known.objects[x.object_type].has(x.object_id))
      issues.push({ field: `${field}.object_id`, message: 'Unknown object' });
    if (x.form_id !== null && !forms.has(x.form_id))
      issues.push({ field: `${field}.form_id`, message: 'Unknown form' });
    const image = (at: number | null, where: string) => {
      if (at !== null && at >= x.attachments.length)
        issues.push({ field: `${field}.${where}`, message: 'Unknown image' });
    };
    image(x.signature, 'signature');
    for (const [j, r] of x.results.entries()) image(r.img, `results.${j}.img`);
    x.defects.forEach((d, j) => {
      image(d.cert_signature, `defects.${j}.cert_signature`);
      if (d.issue_id !== null && !issueIds.has(d.issue_id))
        issues.push({ field: `${field}.defects.${j}.issue_id`, message: 'Unknown issue' });
    });
    x.attachments.forEach((f, j) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data) || f.data.length % 4 !== 0)
        issues.push({ field: `${field}.attachments.${j}.data`, message: 'Not base64' });
    });
  });
  ids('work_orders', doc.work_orders);
  const taken = new Map<number, number>();
  doc.work_orders.forEach((w, i) => {
    const field = `${prefix}work_orders.${i}`;
    if (!known.objects[w.object_type].has(w.object_id))
      issues.push({ field: `${field}.object_id`, message: 'Unknown object' });
    w.issue_ids.forEach((id, j) => {
      if (!issueIds.has(id)) issues.push({ field: `${field}.issue_ids.${j}`, message: 'Unknown issue' });
      else if (taken.has(id))
        issues.push({ field: `${field}.issue_ids.${j}`, message: 'In another work order' });
      taken.set(id, w.id);
    });
    w.service_ids.forEach((id, j) => {
      if (!known.services.has(id))
        issues.push({ field: `${field}.service_ids.${j}`, message: 'Unknown service' });
    });
    if (w.service_id !== null && !known.services.has(w.service_id))
      issues.push({ field: `${field}.service_id`, message: 'Unknown service' });
  });
  ids('vehicle_assignments', doc.vehicle_assignments);
  doc.vehicle_assignments.forEach((a, i) => {
    const field = `${prefix}vehicle_assignments.${i}`;
    if (!known.objects.u.has(a.unit_id)) issues.push({ field: `${field}.unit_id`, message: 'Unknown unit' });
    if (a.end_at !== null && a.end_at <= a.start_at)
      issues.push({ field: `${field}.end_at`, message: 'The end must come after the start' });
  });
  return issues;
}
