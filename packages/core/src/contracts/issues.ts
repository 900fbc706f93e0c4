import { z } from 'zod';
import { Limits } from '../constants.js';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from '../issues.js';
import { acceptingReadOnly, counter, fleetItemParams, id, okReply, pathId, unixTime } from './common.js';
import { SERVICE_ATTACHMENT_BYTES_MAX, SERVICE_ATTACHMENTS_MAX, serviceAttachmentWire } from './services.js';

/**
 * Wire contracts of the issues API (`/api/fleets/{fid}/issues`, docs/product.md "Issues"): the defects
 * of a unit or trailer, with the meter at the report, photos, and a status that the status actions
 * change (core issues.ts `issueTransition`). Counters are km and hours, as everywhere in the API.
 */

/** Photos per issue: the caps and error 2 of service attachments (spec §5). */
export const ISSUE_ATTACHMENTS_MAX = SERVICE_ATTACHMENTS_MAX;
export const ISSUE_ATTACHMENT_BYTES_MAX = SERVICE_ATTACHMENT_BYTES_MAX;
export const ISSUE_TITLE_MAX = Limits.stringMax;
export const ISSUE_DESCRIPTION_MAX = Limits.descriptionMax;
/** The note of a close or resolve. */
export const ISSUE_NOTE_MAX = Limits.descriptionMax;
/** Rows one list reply holds at most (`limit`'s maximum and default). */
export const ISSUE_LIST_MAX = 10_000;
/** The item of an inspection form an issue came from (the inspections module's item key). */
export const ISSUE_INSPECTION_ITEM_MAX = Limits.stringMax;

export const issuePriority = z.enum(ISSUE_PRIORITIES);
export const issueStatus = z.enum(ISSUE_STATUSES);
/** The objects an issue is about: a unit or a trailer. */
export const issueObjectType = z.enum(['u', 't']);
export type IssueObjectType = z.infer<typeof issueObjectType>;

const title = z.string().trim().min(1).max(ISSUE_TITLE_MAX);
const description = z.string().trim().max(ISSUE_DESCRIPTION_MAX);

const issueFields = {
  title: title.describe('What is wrong, in a line'),
  description: description.optional().describe('More about it'),
  priority: issuePriority.optional().describe('low, medium (default), high, critical'),
  reported_at: unixTime
    .optional()
    .describe('When it was found, Unix seconds (default now; not in the future)'),
  mileage: counter
    .nullable()
    .optional()
    .describe("Mileage at the report, km (default the unit's counter; a trailer has none)"),
  engine_hours: counter
    .nullable()
    .optional()
    .describe("Engine hours at the report (default the unit's counter)"),
};

/** POST .../issues: an issue of a unit or trailer of the fleet, reported by the caller. */
export const issueCreateBody = z.strictObject({
  object_type: issueObjectType.describe('u unit, t trailer'),
  object_id: id.describe('The unit or trailer'),
  ...issueFields,
});
export type IssueCreateInput = z.infer<typeof issueCreateBody>;

/** Fields of an issue as read that no PUT sets: accepted and dropped (the GET → PUT round trip). */
const ISSUE_DERIVED = [
  'id',
  'object_name',
  'reported_by',
  'note',
  'ended_at',
  'ended_by',
  'work_order_id',
  'inspection_id',
  'inspection_item',
  'ats',
  'created',
  'updated',
] as const;
/** Changed by the status actions only: refused unless equal, never silently dropped. */
const ISSUE_FIXED = ['status'] as const;

/** PUT .../issues/{id}: any field; the issue as read is accepted. */
export const issueUpdateBody = acceptingReadOnly(
  z.strictObject({
    object_type: issueObjectType.optional(),
    object_id: id.optional(),
    ...issueFields,
    title: title.optional(),
  }),
  ISSUE_DERIVED,
  ISSUE_FIXED,
);
export type IssueUpdateInput = z.output<typeof issueUpdateBody>;

/** A comma-separated list of values of `values`, e.g. `open,workorder`. */
const listOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .max(200)
    .transform((text, ctx) => {
      const parts = text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const bad = parts.filter((p) => !(values as readonly string[]).includes(p));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `Expected ${values.join(', ')}` });
        return z.NEVER;
      }
      return [...new Set(parts)] as T[];
    });

export const ISSUE_SORTS = ['reported', 'priority', 'updated'] as const;

/** GET .../issues: filters, then `sort` (newest first; priority: most urgent first), `offset`, `limit`. */
export const issueListQuery = z.object({
  status: listOf(ISSUE_STATUSES).optional().describe('Comma list of statuses (default all)'),
  priority: listOf(ISSUE_PRIORITIES).optional().describe('Comma list of priorities (default all)'),
  object_type: issueObjectType.optional(),
  object_id: pathId.optional().describe('With object_type: the issues of one unit or trailer'),
  search: z.string().trim().max(ISSUE_TITLE_MAX).optional().describe('Words of the title or description'),
  sort: z.enum(ISSUE_SORTS).optional().describe('reported (default), priority, updated'),
  offset: z.coerce.number().int().min(0).max(Limits.intSigned).optional(),
  limit: z.coerce.number().int().min(1).max(ISSUE_LIST_MAX).optional(),
});
export type IssueListQuery = z.output<typeof issueListQuery>;

/** POST .../issues/{id}/resolve and /close: the note (required to close as not a defect). */
export const issueResolveBody = z.strictObject({
  note: z.string().trim().max(ISSUE_NOTE_MAX).optional().describe('What was done'),
});
export const issueCloseBody = z.strictObject({
  note: z.string().trim().min(1).max(ISSUE_NOTE_MAX).describe('Why it is not a defect'),
});
export const issueReopenBody = z.strictObject({}).optional();

export const issueAttachmentParams = fleetItemParams.extend({ aid: pathId });

// ---- Replies ----

export const issuePerson = z.object({ id, nm: z.string() }).describe('User');

export const issueWire = z.object({
  id,
  object_type: issueObjectType,
  object_id: id,
  object_name: z.string().describe('The unit’s or trailer’s name'),
  title: z.string(),
  description: z.string(),
  priority: issuePriority,
  status: issueStatus.describe('open, workorder (in a work order), resolved, closed (not a defect)'),
  note: z.string().describe('The note of the resolve or close ("" otherwise)'),
  reported_by: issuePerson.nullable().describe('Who reported it (null when the user is gone)'),
  reported_at: unixTime,
  mileage: z.number().nullable().describe('Mileage at the report, km'),
  engine_hours: z.number().nullable().describe('Engine hours at the report'),
  work_order_id: id.nullable().describe('The work order it is in or was resolved by'),
  inspection_id: id.nullable().describe('The inspection whose failed item opened it'),
  inspection_item: z.string().nullable().describe('That inspection’s item'),
  ended_at: unixTime.nullable().describe('Resolved or closed at'),
  ended_by: issuePerson.nullable().describe('Who resolved or closed it'),
  ats: z.number().int().describe('Photo (attachment) count'),
  created: unixTime,
  updated: unixTime,
});
export type IssueWire = z.infer<typeof issueWire>;

export const issueListReply = z.object({
  issues: z.array(issueWire),
  total: z.number().int().describe('Issues matching the filters (before offset and limit)'),
});
export type IssueListReply = z.infer<typeof issueListReply>;
export const issueDeleteReply = okReply;

export const issueAttachmentWire = serviceAttachmentWire;
export type IssueAttachmentWire = z.infer<typeof issueAttachmentWire>;
export const issueAttachmentListReply = z.object({ attachments: z.array(issueAttachmentWire) });
export const issueAttachmentDeleteReply = okReply;
