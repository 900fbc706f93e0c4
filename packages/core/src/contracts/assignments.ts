import { z } from 'zod';
import { acceptingReadOnly, counter, id, pathId, unixTime } from './common.js';

/**
 * Vehicle assignments (`/api/fleets/{fid}/vehicle-assignments`; docs/product.md "Vehicle assignments";
 * rules in core assignments.ts): a driver, who is a user and a member of the fleet, drives a unit from a
 * start to an end; an open end (null) is the unit's current assignment. The meters at both ends are
 * kept, in km and engine hours; the server takes them from the unit's counters when a write leaves them
 * out. Assignments of one unit never overlap (409 naming the clashing one).
 */

/** Most assignments one list reply carries (the newest first). */
export const ASSIGNMENTS_LIST_MAX = 10_000;

export const assignmentWire = z.object({
  id,
  uid: id.describe('The unit'),
  drv: id.describe('The driver: a user who is a member of the fleet'),
  dn: z.string().describe('The driver’s name (full name, else the login)'),
  st: z.number().int().describe('Start, Unix seconds'),
  en: z.number().int().nullable().describe('End, Unix seconds; null while the assignment is open'),
  sm: z.number().describe('Mileage at the start, km'),
  seh: z.number().describe('Engine hours at the start'),
  em: z.number().nullable().describe('Mileage at the end, km; null while open'),
  eeh: z.number().nullable().describe('Engine hours at the end; null while open'),
  cur: z.boolean().describe('Current: started and not ended at the time of the reply'),
});
export type AssignmentWire = z.infer<typeof assignmentWire>;

export const assignmentListReply = z.object({ assignments: z.array(assignmentWire) });
export type AssignmentListReply = z.infer<typeof assignmentListReply>;

/** `GET …/vehicle-assignments?unit=&driver=&current=1`: filters, all optional. */
export const assignmentListQuery = z.object({
  unit: pathId.optional().describe('Only this unit’s assignments'),
  driver: pathId.optional().describe('Only this driver’s (user id) assignments'),
  current: z.enum(['0', '1']).optional().describe('1: only the current ones; 0: only the others'),
});
export type AssignmentListQuery = z.output<typeof assignmentListQuery>;

const meters = {
  sm: counter.describe('Mileage at the start, km; the unit’s counter when left out'),
  seh: counter.describe('Engine hours at the start; the unit’s counter when left out'),
  em: counter
    .nullable()
    .describe('Mileage at the end, km; the unit’s counter when an end is given without it'),
  eeh: counter.nullable().describe('Engine hours at the end; as `em`'),
};

/** The end must come after the start (an assignment of no time is none). */
const endAfterStart = (v: { st?: number; en?: number | null }) =>
  v.st === undefined || v.en === undefined || v.en === null || v.en > v.st;
const END_BEFORE_START = { message: 'The end must come after the start', path: ['en'] };

/** `POST …/vehicle-assignments`: start now when left out, open unless an end is given. */
export const assignmentCreateBody = z
  .object({
    uid: id.describe('The unit'),
    drv: id.describe('The driver (user id), a member of the fleet'),
    st: unixTime.optional().describe('Start, Unix seconds; now when left out'),
    en: unixTime.nullable().default(null).describe('End, Unix seconds; null (open) when left out'),
    sm: meters.sm.optional(),
    seh: meters.seh.optional(),
    em: meters.em.optional(),
    eeh: meters.eeh.optional(),
  })
  .refine(endAfterStart, END_BEFORE_START);
export type AssignmentCreateBody = z.output<typeof assignmentCreateBody>;

/** Fields of an assignment as read that an update ignores: the driver's name, "current". */
export const ASSIGNMENT_READ_ONLY = ['id', 'dn', 'cur'] as const;
/** The unit of an assignment does not change: end it and start another. */
export const ASSIGNMENT_FIXED = ['uid'] as const;

/**
 * `PUT …/vehicle-assignments/{id}`: ending one is an update with `en` (the end meters default to the
 * unit's counters); `en: null` opens it again. The assignment as read is accepted too. The server
 * checks the end against the start it will store (the body may change one of them only).
 */
export const assignmentUpdateBody = acceptingReadOnly(
  z
    .object({
      drv: id,
      st: unixTime,
      en: unixTime.nullable(),
      sm: meters.sm,
      seh: meters.seh,
      em: meters.em,
      eeh: meters.eeh,
    })
    .partial(),
  ASSIGNMENT_READ_ONLY,
  ASSIGNMENT_FIXED,
);
export type AssignmentUpdateBody = z.output<typeof assignmentUpdateBody>;

/**
 * `GET /api/fleets/{fid}/assignment-drivers`: whom a unit can be assigned to, the fleet's members, by
 * name; those with "assigned units only" (the driver preset) are marked.
 */
export const assignmentDriverWire = z.object({
  id,
  nm: z.string().describe('Full name, else the login'),
  ao: z.boolean().describe('The membership is limited to the assigned units (the driver preset)'),
});
export type AssignmentDriverWire = z.infer<typeof assignmentDriverWire>;
export const assignmentDriversReply = z.object({ drivers: z.array(assignmentDriverWire) });
