import { z } from 'zod';
import { Limits } from '../constants.js';
import {
  BUILTIN_DVIR,
  CERTIFICATIONS,
  DEFECT_SEVERITIES,
  INSPECTION_ITEM_KINDS,
  INSPECTION_RETENTION_MAX_MONTHS,
  INSPECTION_RETENTION_MIN_MONTHS,
} from '../inspections.js';
import { acceptingReadOnly, counter, fleetItemParams, id, pathId } from './common.js';

/**
 * Wire contracts of inspection forms and inspections (DVIR; docs/product.md "Inspections"; the rules in
 * core inspections.ts). A submitted inspection keeps its own copy of the form's items, so editing or
 * deleting a form never changes what was submitted.
 */

/** Items of one form. */
export const INSPECTION_ITEMS_MAX = 100;
/** Images of one submit or certification (photos and signatures). */
export const INSPECTION_IMAGES_MAX = 20;
/** One image as a data URL: at most this many characters (about 3 MB of PNG, JPEG or WebP). */
export const INSPECTION_IMAGE_CHARS_MAX = 4_000_000;
/** The JSON body of a submit or a certification, bytes: the images and the rest. */
export const INSPECTION_BODY_MAX = 24 * 1024 * 1024;
/** Inspections one list reply holds at most (newest first). */
export const INSPECTION_LIST_MAX = 500;
/** A text answer or a note. */
export const INSPECTION_TEXT_MAX = Limits.descriptionMax;

export const inspectionItemKind = z.enum(INSPECTION_ITEM_KINDS);
export const defectSeverity = z.enum(DEFECT_SEVERITIES);
export const certification = z.enum(CERTIFICATIONS);

/** An image drawn or taken in the browser: a base64 data URL of PNG, JPEG or WebP. */
export const inspectionImage = z
  .string()
  .max(INSPECTION_IMAGE_CHARS_MAX)
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'A PNG, JPEG or WebP data URL');

const label = z
  .string()
  .trim()
  .min(1)
  .max(Limits.stringMax * 2);

/** An item as written: kind, label, the severity a fail carries (pass/fail only), required. */
export const inspectionItemBody = z
  .object({
    k: inspectionItemKind,
    l: label,
    sev: defectSeverity.nullable().optional(),
    req: z.boolean().optional(),
    key: z.unknown().optional().meta({ readOnly: true, description: 'Read-only: ignored on write' }),
  })
  .superRefine((item, ctx) => {
    if (item.k !== 'pf' && item.sev)
      ctx.addIssue({ code: 'custom', path: ['sev'], message: 'Only pass/fail items carry a severity' });
  });

export const inspectionFormBody = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  items: z.array(inspectionItemBody).min(1).max(INSPECTION_ITEMS_MAX),
});
export type InspectionFormBody = z.infer<typeof inspectionFormBody>;

/** PUT …/inspection-forms/{id}: any of the fields; the form as read is accepted. */
export const inspectionFormUpdateBody = acceptingReadOnly(inspectionFormBody.partial(), [
  'id',
  'bi',
  'used',
  'ua',
]);
export type InspectionFormUpdateBody = z.infer<typeof inspectionFormUpdateBody>;

export const inspectionItemWire = z.object({
  k: inspectionItemKind,
  l: z.string().describe('Label as written (English for built-in items)'),
  key: z
    .string()
    .nullable()
    .describe('Built-in items: the locale key of the label, shown in the reader’s language'),
  sev: defectSeverity.nullable().describe('Pass/fail items: the severity a fail carries by default'),
  req: z.boolean().describe('An answer is required (pass/fail items always need one)'),
});
export type InspectionItemWire = z.infer<typeof inspectionItemWire>;

export const inspectionFormWire = z.object({
  id,
  n: z.string().describe('Name'),
  bi: z
    .literal(BUILTIN_DVIR)
    .nullable()
    .describe('Built-in form (not editable, copyable): dvir; null for the fleet’s own'),
  items: z.array(inspectionItemWire),
  used: z
    .number()
    .int()
    .describe('Inspections submitted with this form (they keep their own copy of the items)'),
  ua: z.number().int().describe('Updated at, Unix seconds'),
});
export type InspectionFormWire = z.infer<typeof inspectionFormWire>;
export const inspectionFormListReply = z.object({ forms: z.array(inspectionFormWire) });
export type InspectionFormListReply = z.infer<typeof inspectionFormListReply>;

// --- inspections ---

/** The result of one item in a submit. */
export const inspectionResultBody = z.object({
  i: z
    .number()
    .int()
    .min(0)
    .max(INSPECTION_ITEMS_MAX - 1)
    .describe('Index of the item in the form'),
  ok: z.boolean().nullable().optional().describe('Pass/fail items: passed (true) or failed (false)'),
  sev: defectSeverity
    .nullable()
    .optional()
    .describe('A failed item: its severity, when not the item’s default'),
  v: counter.nullable().optional().describe('Number items'),
  tx: z
    .string()
    .trim()
    .max(INSPECTION_TEXT_MAX)
    .nullable()
    .optional()
    .describe('Text items; a remark on any item'),
  img: inspectionImage
    .nullable()
    .optional()
    .describe('Photo or signature items, or a photo of a failed item'),
});
export type InspectionResultBody = z.infer<typeof inspectionResultBody>;

export const inspectionSubmitBody = z
  .object({
    fm: id.describe('The form'),
    ot: z.enum(['u', 't']).describe('Object type: unit or trailer'),
    oi: id.describe('Object id'),
    mi: counter.nullable().optional().describe('Mileage at the inspection, km'),
    eh: counter.nullable().optional().describe('Engine hours at the inspection'),
    note: z.string().trim().max(INSPECTION_TEXT_MAX).optional(),
    res: z.array(inspectionResultBody).max(INSPECTION_ITEMS_MAX),
    sig: inspectionImage.describe('The submitter’s drawn signature'),
    ack: id.nullable().optional().describe('The last report of the object, acknowledged with this submit'),
  })
  .superRefine((body, ctx) => {
    const images = body.res.filter((r) => r.img).length + 1;
    if (images > INSPECTION_IMAGES_MAX)
      ctx.addIssue({ code: 'custom', path: ['res'], message: `At most ${INSPECTION_IMAGES_MAX} images` });
  });
export type InspectionSubmitBody = z.infer<typeof inspectionSubmitBody>;

const person = z.object({ id, nm: z.string() }).describe('User');

export const inspectionResultWire = z.object({
  i: z.number().int(),
  ok: z.boolean().nullable(),
  sev: defectSeverity.nullable(),
  v: z.number().nullable(),
  tx: z.string().nullable(),
  img: z.number().int().nullable().describe('Attachment id of the image'),
});

export const inspectionDefectWire = z.object({
  id,
  i: z.number().int().describe('Index of the failed item'),
  sev: defectSeverity,
  pr: z
    .enum(['medium', 'high', 'critical'])
    .describe('Priority of the issue it opens (core SEVERITY_PRIORITY)'),
  iss: z.number().int().nullable().describe('The issue opened for it, when there is one'),
  cert: certification.nullable().describe('Certified repaired or repair unnecessary; null until certified'),
  cn: z.string().describe('Certification note'),
  cb: person.nullable(),
  ca: z.number().int().nullable().describe('Certified at, Unix seconds'),
  csig: z.number().int().nullable().describe('Attachment id of the certifier’s signature'),
});
export type InspectionDefectWire = z.infer<typeof inspectionDefectWire>;

export const inspectionAckWire = z.object({ by: person.nullable(), at: z.number().int() });

/** One inspection in a list. */
export const inspectionRowWire = z.object({
  id,
  fm: z.number().int().nullable().describe('The form (null once it is deleted)'),
  fn: z.string().describe('Form name as submitted'),
  bi: z.literal(BUILTIN_DVIR).nullable(),
  ot: z.enum(['u', 't']),
  oi: id,
  on: z.string().describe('Object name'),
  at: z.number().int().describe('Submitted at, Unix seconds'),
  by: person.nullable().describe('Who submitted it'),
  mi: z.number().nullable(),
  eh: z.number().nullable(),
  nd: z.number().int().describe('Defects'),
  ws: defectSeverity.nullable().describe('Worst severity of its defects'),
  st: z.enum(['ok', 'defects', 'certified']),
  ak: inspectionAckWire.nullable().describe('Acknowledged by the next inspection’s driver'),
});
export type InspectionRowWire = z.infer<typeof inspectionRowWire>;

export const inspectionWire = inspectionRowWire.extend({
  note: z.string(),
  items: z.array(inspectionItemWire).describe('The form’s items as they were when submitted'),
  res: z.array(inspectionResultWire),
  sig: z.number().int().nullable().describe('Attachment id of the submitter’s signature'),
  defects: z.array(inspectionDefectWire),
});
export type InspectionWire = z.infer<typeof inspectionWire>;

export const inspectionListQuery = z.object({
  ot: z.enum(['u', 't']).optional(),
  oi: pathId.optional(),
  d: z.enum(['1']).optional().describe('1: only inspections with defects'),
  since: z.coerce.number().int().min(0).optional().describe('Submitted at or after, Unix seconds'),
  lim: z.coerce.number().int().min(1).max(INSPECTION_LIST_MAX).optional(),
});
export type InspectionListQuery = z.infer<typeof inspectionListQuery>;
export const inspectionListReply = z.object({ inspections: z.array(inspectionRowWire) });
export type InspectionListReply = z.infer<typeof inspectionListReply>;

/** The certification of one defect. */
export const defectCertificationBody = z.object({
  id: id.describe('The defect'),
  c: certification,
  n: z.string().trim().max(INSPECTION_TEXT_MAX).optional(),
  sig: inspectionImage.describe('The certifier’s drawn signature'),
});

/**
 * PUT …/inspections/{id}: a submitted inspection is locked; the body may only certify defects (need
 * inspection.manage) and acknowledge the report (inspection.submit). The inspection as read is
 * accepted: its stored fields must be sent unchanged (400 "Cannot be changed" otherwise).
 */
export const inspectionUpdateBody = acceptingReadOnly(
  z.object({
    cert: z.array(defectCertificationBody).max(INSPECTION_IMAGES_MAX).optional(),
    ack: z.literal(true).optional().describe('Acknowledge this report (its defects and their certification)'),
  }),
  ['id', 'on', 'by', 'nd', 'ws', 'st', 'ak', 'defects'],
  ['fm', 'fn', 'bi', 'ot', 'oi', 'at', 'mi', 'eh', 'note', 'items', 'res', 'sig'],
);
export type InspectionUpdateBody = z.infer<typeof inspectionUpdateBody>;

export const inspectionAttachmentParams = fleetItemParams.extend({ aid: pathId });

/** The fleet setting "keep inspections for" (months, at least three). */
export const inspectionSettingsBody = z.object({
  rm: z.number().int().min(INSPECTION_RETENTION_MIN_MONTHS).max(INSPECTION_RETENTION_MAX_MONTHS),
});
export const inspectionSettingsReply = inspectionSettingsBody;
export type InspectionSettings = z.infer<typeof inspectionSettingsReply>;
