import { z } from 'zod';
import { Limits } from '../constants.js';
import {
  DOCUMENT_EXPIRY_STATES,
  DOCUMENT_OWNER_TYPES,
  DOCUMENT_TYPES,
  REMINDER_DAYS_MAX,
} from '../documents.js';
import { acceptingReadOnly, decimal3, fleetItemParams, id, okReply, pathId, unixTime } from './common.js';
import { SERVICE_ATTACHMENT_BYTES_MAX, SERVICE_ATTACHMENTS_MAX, serviceAttachmentWire } from './services.js';

/**
 * Wire contracts of the documents API (`/api/fleets/{fid}/documents`, docs/product.md "Documents"): a
 * document of a unit, trailer or driver, with its periods (the current one and the renewals before it),
 * its cost per period (money: number or decimal text, integer thousandths stored) and its files.
 */

export const DOCUMENT_TEXT_MAX = Limits.stringMax;
export const DOCUMENT_NOTES_MAX = Limits.descriptionMax;
/** Rows one list reply holds at most (`limit`'s maximum and default). */
export const DOCUMENT_LIST_MAX = 10_000;
/** Fleet-defined document types per fleet at most. */
export const DOCUMENT_TYPES_MAX = 100;
export const DOCUMENT_ATTACHMENTS_MAX = SERVICE_ATTACHMENTS_MAX;
export const DOCUMENT_ATTACHMENT_BYTES_MAX = SERVICE_ATTACHMENT_BYTES_MAX;

export const documentType = z.enum(DOCUMENT_TYPES);
export const documentOwnerType = z.enum(DOCUMENT_OWNER_TYPES);
export const documentExpiryState = z.enum(DOCUMENT_EXPIRY_STATES);

const text = z.string().trim().max(DOCUMENT_TEXT_MAX);
const reminderDays = z.number().int().min(0).max(REMINDER_DAYS_MAX);

const periodFields = {
  valid_from: unixTime.nullable().optional().describe('Start of the period, Unix seconds'),
  valid_to: unixTime.describe('End of the period, Unix seconds (expired after it)'),
  cost: decimal3().nullable().optional().describe('What the period cost, in the fleet currency'),
};

/** POST .../documents: a document with its first period. */
export const documentCreateBody = z
  .strictObject({
    owner_type: documentOwnerType.describe('u unit, t trailer, d driver'),
    owner_id: id.describe('The unit, trailer or driver'),
    type: documentType.describe('A built-in type, or custom with type_id'),
    type_id: id.nullable().optional().describe('The fleet-defined type (with type custom)'),
    number: text.optional().describe('Document number'),
    issuer: text.optional().describe('Who issued it'),
    notes: z.string().trim().max(DOCUMENT_NOTES_MAX).optional(),
    ...periodFields,
  })
  .refine((b) => b.valid_from == null || b.valid_from <= b.valid_to, {
    message: 'Must not be after valid_to',
    path: ['valid_from'],
  });
export type DocumentCreateInput = z.infer<typeof documentCreateBody>;

/** Fields of a document as read that no PUT sets: accepted and dropped (the GET → PUT round trip). */
const DOCUMENT_DERIVED = [
  'id',
  'owner_name',
  'type_name',
  'reminder_days',
  'state',
  'days_left',
  'period_id',
  'periods',
  'ats',
  'created',
  'updated',
] as const;
/** Fixed once made: refused unless equal. */
const DOCUMENT_FIXED = ['owner_type', 'owner_id'] as const;

/** PUT .../documents/{id}: the fields sent; the period fields change the current period. */
export const documentUpdateBody = acceptingReadOnly(
  z.strictObject({
    type: documentType.optional(),
    type_id: id.nullable().optional(),
    number: text.optional(),
    issuer: text.optional(),
    notes: z.string().trim().max(DOCUMENT_NOTES_MAX).optional(),
    valid_from: unixTime.nullable().optional(),
    valid_to: unixTime.optional(),
    cost: decimal3().nullable().optional(),
  }),
  DOCUMENT_DERIVED,
  DOCUMENT_FIXED,
);
export type DocumentUpdateInput = z.output<typeof documentUpdateBody>;

/** POST .../documents/{id}/renew: a new period; the current one goes to the history. */
export const documentRenewBody = z
  .strictObject({
    ...periodFields,
    number: text.optional().describe('The new document number (default: unchanged)'),
  })
  .refine((b) => b.valid_from == null || b.valid_from <= b.valid_to, {
    message: 'Must not be after valid_to',
    path: ['valid_from'],
  });
export type DocumentRenewInput = z.infer<typeof documentRenewBody>;

/** GET .../documents: filters by owner, type and expiry state, paged; soonest end first. */
export const documentListQuery = z.object({
  owner_type: documentOwnerType.optional(),
  owner_id: pathId.optional().describe('With owner_type: the documents of one object'),
  type: documentType.optional(),
  type_id: pathId.optional(),
  state: z
    .enum([...DOCUMENT_EXPIRY_STATES, 'attention'])
    .optional()
    .describe('valid, expiring, expired, or attention (expiring or expired)'),
  offset: z.coerce.number().int().min(0).max(Limits.intSigned).optional(),
  limit: z.coerce.number().int().min(1).max(DOCUMENT_LIST_MAX).optional(),
});
export type DocumentListQuery = z.output<typeof documentListQuery>;

export const documentPeriodWire = z.object({
  id,
  number: z.string(),
  valid_from: unixTime.nullable(),
  valid_to: unixTime,
  cost: z.number().nullable().describe('In the fleet currency'),
  reminded: unixTime.nullable().describe('When its reminder was sent'),
  created: unixTime,
});
export type DocumentPeriodWire = z.infer<typeof documentPeriodWire>;

export const documentWire = z.object({
  id,
  owner_type: documentOwnerType,
  owner_id: id,
  owner_name: z.string(),
  type: documentType,
  type_id: id.nullable(),
  type_name: z.string().describe('The fleet-defined type name (empty for a built-in type)'),
  reminder_days: z.number().int(),
  number: z.string(),
  issuer: z.string(),
  notes: z.string(),
  period_id: id.describe('The current period'),
  valid_from: unixTime.nullable(),
  valid_to: unixTime,
  cost: z.number().nullable(),
  state: documentExpiryState,
  days_left: z.number().int(),
  ats: z.number().int().describe('Attachment count'),
  created: unixTime,
  updated: unixTime,
});
export type DocumentWire = z.infer<typeof documentWire>;

/** GET .../documents/{id}: the document with its periods, newest first. */
export const documentDetailWire = documentWire.extend({ periods: z.array(documentPeriodWire) });
export type DocumentDetailWire = z.infer<typeof documentDetailWire>;

export const documentListReply = z.object({ documents: z.array(documentWire), total: z.number().int() });
export type DocumentListReply = z.infer<typeof documentListReply>;
export const documentDeleteReply = okReply;

export const documentAttachmentParams = fleetItemParams.extend({ aid: pathId });
export const documentAttachmentListReply = z.object({ attachments: z.array(serviceAttachmentWire) });

// ---- Fleet-defined types ----

export const documentTypeBody = z.strictObject({
  name: z.string().trim().min(1).max(DOCUMENT_TEXT_MAX),
  reminder_days: reminderDays.optional().describe('Days before expiry the reminder is sent (default 30)'),
});
export type DocumentTypeInput = z.infer<typeof documentTypeBody>;
export const documentTypeWire = z.object({ id, name: z.string(), reminder_days: z.number().int() });
export type DocumentTypeWire = z.infer<typeof documentTypeWire>;
export const documentTypeListReply = z.object({ types: z.array(documentTypeWire) });
export type DocumentTypeListReply = z.infer<typeof documentTypeListReply>;
