import { z } from 'zod';
import { Limits } from '../constants.js';
import { BUILTIN_DVIR } from '../inspections.js';
import { id } from './common.js';
import { certification, defectSeverity, INSPECTION_ITEMS_MAX, inspectionItemWire } from './inspections.js';
import { LINE_ITEMS_MAX } from './lineitems.js';
import { WORK_ORDER_LINKS_MAX, workOrderStatus } from './work-orders.js';

/**
 * The workshop records of the fleet export, document version 6 (docs/product.md "Fleet export and
 * import"): inspection forms, inspections with their results, defects, certification, acknowledgement
 * and images, work orders with their links and lines, and vehicle assignments. Ids are the source
 * fleet's; people travel by login (the importer maps a login to the target fleet's member, else to
 * itself, or leaves a vehicle assignment of an unknown driver out). The shared pieces (times, files,
 * lines) are handed in by contracts/fleet-transfer.ts.
 */
export function workshopTransfer<A extends z.ZodTypeAny, L extends z.ZodTypeAny>(parts: {
  /** One file, data in base64 (the export's attachment). */
  attachment: A;
  /** A line item (name, kind, qty and cost in thousandths). */
  line: L;
  text: z.ZodString;
}) {
  const time = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
  const num = z.number().finite().min(0).max(1e12);
  const opt = <T extends z.ZodTypeAny>(s: T) => s.nullable();
  const userName = z.string().min(1).max(Limits.stringMax);
  const objectKind = z.enum(['u', 't']);
  /** Index of an image in the inspection's `attachments`. */
  const image = z
    .number()
    .int()
    .min(0)
    .max(INSPECTION_IMAGES_PER_RECORD - 1);

  /** A form: the built-in DVIR (`builtin: "dvir"`, matched to the target fleet's) or one of the fleet's own. */
  const inspectionForm = z.object({
    id,
    name: z.string().trim().min(1).max(Limits.stringMax),
    builtin: opt(z.literal(BUILTIN_DVIR)),
    items: z.array(inspectionItemWire).max(INSPECTION_ITEMS_MAX),
    created_at: time,
    updated_at: time,
  });

  /** An answer as stored; `img` the index of its image in the inspection's `attachments`. */
  const result = z.object({
    i: z
      .number()
      .int()
      .min(0)
      .max(INSPECTION_ITEMS_MAX - 1),
    ok: z.boolean().nullable(),
    sev: defectSeverity.nullable(),
    v: z.number().finite().nullable(),
    tx: z.string().max(Limits.descriptionMax).nullable(),
    img: opt(image),
  });

  /** A failed item: its issue (source id), the certification with the certifier's signature (an index). */
  const defect = z.object({
    item: z
      .number()
      .int()
      .min(0)
      .max(INSPECTION_ITEMS_MAX - 1),
    severity: defectSeverity,
    issue_id: opt(id),
    cert: opt(certification),
    cert_note: parts.text,
    cert_by: opt(userName),
    cert_at: opt(time),
    cert_signature: opt(image),
  });

  const inspection = z.object({
    id,
    form_id: opt(id),
    form_name: z.string().max(Limits.stringMax),
    builtin: opt(z.literal(BUILTIN_DVIR)),
    object_type: objectKind,
    object_id: id,
    mileage: opt(num),
    engine_hours: opt(num),
    note: parts.text,
    items: z.array(inspectionItemWire).max(INSPECTION_ITEMS_MAX),
    results: z.array(result).max(INSPECTION_ITEMS_MAX),
    signature: opt(image),
    submitted_at: time,
    submitted_by: opt(userName),
    defects: z.array(defect).max(INSPECTION_ITEMS_MAX),
    ack_by: opt(userName),
    ack_at: opt(time),
    attachments: z.array(parts.attachment).max(INSPECTION_IMAGES_PER_RECORD).default([]),
  });

  /** A work order: its issues and services by source id (`service_id`: the archived unplanned work). */
  const workOrder = z.object({
    id,
    object_type: objectKind,
    object_id: id,
    title: z.string().min(1).max(Limits.stringMax),
    description: parts.text,
    status: workOrderStatus,
    assignee: opt(userName),
    created_by: opt(userName),
    scheduled_start: opt(time),
    scheduled_end: opt(time),
    actual_start: opt(time),
    actual_end: opt(time),
    mileage: opt(num),
    engine_hours: opt(num),
    downtime_start: opt(time),
    service_id: opt(id),
    issue_ids: z.array(id).max(WORK_ORDER_LINKS_MAX),
    service_ids: z.array(id).max(WORK_ORDER_LINKS_MAX),
    li: z.array(parts.line).max(LINE_ITEMS_MAX),
    created_at: time,
    updated_at: time,
  });

  /** A driver's spell on a unit (the driver by login), with the meters at both ends. */
  const vehicleAssignment = z.object({
    id,
    unit_id: id,
    driver: userName,
    start_at: time,
    end_at: opt(time),
    start_mileage: num,
    start_engine_hours: num,
    end_mileage: opt(num),
    end_engine_hours: opt(num),
    created_at: time,
    created_by: opt(userName),
  });

  return { inspectionForm, inspection, workOrder, vehicleAssignment };
}

/** Images of one inspection in the document: the signature, item photos and certifiers' signatures. */
export const INSPECTION_IMAGES_PER_RECORD = 2 * INSPECTION_ITEMS_MAX + 1;
