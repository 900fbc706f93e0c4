import { z } from 'zod';
import { Limits } from '../constants.js';
import { WORK_ORDER_STATUSES } from '../work-orders.js';
import { acceptingReadOnly, counter, id, okReply, pathId, unixTime } from './common.js';
import { issuePriority, issueStatus } from './issues.js';
import { LINE_ITEMS_MAX, lineItemLineInput, lineWire } from './lineitems.js';

/**
 * Wire contracts of the work-orders API (`/api/fleets/{fid}/work-orders`, docs/product.md "Work
 * orders"): the workshop's job on a unit or trailer, with its linked issues and Due services, its line
 * items (parts and labour, as services carry them), an assignee, a schedule and the actual times. The
 * status changes by the actions (core work-orders.ts `workOrderTransition`). Counters are km and hours.
 */

export const WORK_ORDER_TITLE_MAX = Limits.stringMax;
export const WORK_ORDER_DESCRIPTION_MAX = Limits.descriptionMax;
/** Issues and services one work order links at most. */
export const WORK_ORDER_LINKS_MAX = 100;
/** Rows one list reply holds at most (`limit`'s maximum and default). */
export const WORK_ORDER_LIST_MAX = 10_000;

export const workOrderStatus = z.enum(WORK_ORDER_STATUSES);
/** The objects a work order is about: a unit or a trailer. */
export const workOrderObjectType = z.enum(['u', 't']);

const title = z.string().trim().min(1).max(WORK_ORDER_TITLE_MAX);
const description = z.string().trim().max(WORK_ORDER_DESCRIPTION_MAX);
const idList = z
  .array(id)
  .max(WORK_ORDER_LINKS_MAX)
  .refine((ids) => new Set(ids).size === ids.length, 'Each id once');

const workOrderFields = {
  title: title.describe('What the job is, in a line (the unplanned service record is named after it)'),
  description: description.optional().describe('More about it'),
  assignee_id: id.nullable().optional().describe('The user (a member of the fleet) who does the work'),
  scheduled_start: unixTime.nullable().optional().describe('Planned start, Unix seconds'),
  scheduled_end: unixTime.nullable().optional().describe('Planned end, Unix seconds (overdue once passed)'),
  issue_ids: idList
    .optional()
    .describe('The open issues of the object it fixes: linking puts them "in a work order"'),
  service_ids: idList
    .optional()
    .describe('Due, overdue or In progress services of the object it carries out'),
  li: z.array(lineItemLineInput).max(LINE_ITEMS_MAX).optional().describe('Parts and labour'),
};

/** POST .../work-orders: a work order of a unit or trailer of the fleet, open, made by the caller. */
export const workOrderCreateBody = z.strictObject({
  object_type: workOrderObjectType.describe('u unit, t trailer'),
  object_id: id.describe('The unit or trailer'),
  ...workOrderFields,
});
export type WorkOrderCreateInput = z.infer<typeof workOrderCreateBody>;

/** Fields of a work order as read that no PUT sets: accepted and dropped (the GET → PUT round trip). */
const WORK_ORDER_DERIVED = [
  'id',
  'object_name',
  'assignee',
  'created_by',
  'actual_start',
  'actual_end',
  'mileage',
  'engine_hours',
  'issues',
  'services',
  'total_cost',
  'downtime_start',
  'downtime',
  'overdue',
  'service_id',
  'created',
  'updated',
] as const;
/** Changed by the actions only (status) or fixed once made (object): refused unless equal. */
const WORK_ORDER_FIXED = ['status', 'object_type', 'object_id'] as const;

/** PUT .../work-orders/{id}: any field of an unfinished work order; the work order as read is accepted. */
export const workOrderUpdateBody = acceptingReadOnly(
  z.strictObject({ ...workOrderFields, title: title.optional() }),
  WORK_ORDER_DERIVED,
  WORK_ORDER_FIXED,
);
export type WorkOrderUpdateInput = z.output<typeof workOrderUpdateBody>;

/** POST .../work-orders/{id}/complete: the meter at completion (default the unit's counters). */
export const workOrderCompleteBody = z
  .strictObject({
    mileage: counter.nullable().optional().describe("Mileage at completion, km (default the unit's)"),
    engine_hours: counter.nullable().optional().describe("Engine hours at completion (default the unit's)"),
  })
  .optional();
export type WorkOrderCompleteInput = z.infer<typeof workOrderCompleteBody>;
/** POST .../start, /hold, /cancel: no fields. */
export const workOrderActionBody = z.strictObject({}).optional();

const statusList = z
  .string()
  .max(200)
  .transform((text, ctx) => {
    const parts = [
      ...new Set(
        text
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ];
    const known = WORK_ORDER_STATUSES as readonly string[];
    if (parts.some((p) => !known.includes(p))) {
      ctx.addIssue({ code: 'custom', message: `Expected ${WORK_ORDER_STATUSES.join(', ')}` });
      return z.NEVER;
    }
    return parts as (typeof WORK_ORDER_STATUSES)[number][];
  });

export const WORK_ORDER_SORTS = ['created', 'scheduled', 'updated'] as const;

/** GET .../work-orders: filters, then `sort` (newest first; scheduled: soonest end first), paging. */
export const workOrderListQuery = z.object({
  status: statusList.optional().describe('Comma list of statuses (default all)'),
  object_type: workOrderObjectType.optional(),
  object_id: pathId.optional().describe('With object_type: the work orders of one unit or trailer'),
  assignee: pathId.optional().describe('The work orders assigned to this user'),
  overdue: z.enum(['0', '1']).optional().describe('1: only those whose scheduled end has passed'),
  sort: z.enum(WORK_ORDER_SORTS).optional().describe('created (default), scheduled, updated'),
  offset: z.coerce.number().int().min(0).max(Limits.intSigned).optional(),
  limit: z.coerce.number().int().min(1).max(WORK_ORDER_LIST_MAX).optional(),
});
export type WorkOrderListQuery = z.output<typeof workOrderListQuery>;

// ---- Replies ----

export const workOrderPerson = z.object({ id, nm: z.string() }).describe('User');

export const workOrderIssueWire = z.object({
  id,
  title: z.string(),
  priority: issuePriority,
  status: issueStatus,
  reported_at: unixTime,
});

export const workOrderServiceWire = z.object({
  id,
  n: z.string().describe('Name'),
  f: z.number().int().describe('Status flags (spec §4)'),
  ivid: id.nullable().describe('Its interval'),
  limit_date: unixTime.nullable(),
  limit_mileage: z.number().nullable(),
  limit_engine_hours: z.number().nullable(),
});

export const workOrderWire = z.object({
  id,
  object_type: workOrderObjectType,
  object_id: id,
  object_name: z.string().describe('The unit’s or trailer’s name'),
  title: z.string(),
  description: z.string(),
  status: workOrderStatus,
  assignee: workOrderPerson.nullable().describe('Who does the work'),
  created_by: workOrderPerson.nullable(),
  scheduled_start: unixTime.nullable(),
  scheduled_end: unixTime.nullable(),
  actual_start: unixTime.nullable().describe('Set by start (or complete)'),
  actual_end: unixTime.nullable().describe('Set by complete or cancel'),
  mileage: z.number().nullable().describe('Mileage at completion, km'),
  engine_hours: z.number().nullable().describe('Engine hours at completion'),
  issues: z.array(workOrderIssueWire).describe('Linked issues'),
  services: z.array(workOrderServiceWire).describe('Linked services'),
  li: z.array(lineWire),
  total_cost: z.number().describe('Sum of the line items, in the fleet currency'),
  downtime_start: unixTime.nullable().describe('First linked issue reported, or the actual start'),
  downtime: z.number().int().nullable().describe('Seconds from downtime_start to completion (or now)'),
  overdue: z.boolean().describe('Scheduled end passed and neither completed nor cancelled'),
  service_id: id.nullable().describe('The archived service record of the unplanned work'),
  created: unixTime,
  updated: unixTime,
});
export type WorkOrderWire = z.infer<typeof workOrderWire>;

export const workOrderListReply = z.object({
  work_orders: z.array(workOrderWire),
  total: z.number().int().describe('Work orders matching the filters (before offset and limit)'),
});
export type WorkOrderListReply = z.infer<typeof workOrderListReply>;
export const workOrderDeleteReply = okReply;

/** GET .../work-orders/assignees: the fleet's members a work order may be assigned to. */
export const workOrderAssigneesReply = z.object({ users: z.array(workOrderPerson) });
export type WorkOrderAssigneesReply = z.infer<typeof workOrderAssigneesReply>;
