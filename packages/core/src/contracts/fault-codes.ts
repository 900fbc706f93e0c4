import { z } from 'zod';
import { CRITICAL_FAULT_CODES_MAX, FAULT_CODE_MAX_LENGTH } from '../fault-codes.js';
import { id, pathId } from './common.js';

/**
 * A unit's diagnostic trouble codes (DTC): what Teltonika IO 281 and Traccar's `dtcs` attribute reported,
 * kept per unit and code (server `fault_codes`, migration 028; the rules in core fault-codes.ts). A code
 * is active until a manager clears it; seen again in a reading taken after the clear, it is active
 * again, its count going on.
 */

/** Codes one unit keeps at most in the list reply (the most recently seen first). */
export const FAULT_CODES_LIST_MAX = 1000;

export const faultCodePerson = z.object({ id, nm: z.string() }).describe('User');

export const faultCodeWire = z.object({
  id,
  code: z.string().describe('The code as reported, upper case, e.g. P0300'),
  fs: z.number().int().describe('First seen: Unix seconds of the first reading that reported it'),
  ls: z.number().int().describe('Last seen: Unix seconds of the latest reading that reported it'),
  n: z.number().int().min(1).describe('Readings that reported it'),
  ca: z.number().int().nullable().describe('Cleared at, Unix seconds; null while the code is active'),
  cb: faultCodePerson.nullable().describe('Who cleared it (null while active, or when the user is gone)'),
  crit: z.boolean().describe('The fleet counts the code as critical (its list holds the code or a prefix)'),
});
export type FaultCodeWire = z.infer<typeof faultCodeWire>;

/** `GET /api/fleets/{fid}/units/{id}/fault-codes`: active codes first, then by last seen, newest first. */
export const faultCodeListReply = z.object({ codes: z.array(faultCodeWire) });
export type FaultCodeListReply = z.infer<typeof faultCodeListReply>;

export const faultCodeParams = z.object({ fid: pathId, id: pathId, codeId: pathId });

/** `POST …/fault-codes/{codeId}/clear`: no fields; the code as it is after the clear. */
export const faultCodeClearBody = z.object({}).optional();
export const faultCodeClearReply = z.object({ code: faultCodeWire });
export type FaultCodeClearReply = z.infer<typeof faultCodeClearReply>;

/** A code or prefix of a fleet's critical list: letters, digits, `-`, `_`; upper-cased. */
export const criticalFaultCodeEntry = z
  .string()
  .trim()
  .toUpperCase()
  .min(1)
  .max(FAULT_CODE_MAX_LENGTH)
  .regex(/^[A-Z0-9][A-Z0-9_-]*$/, 'letters, digits, - and _ only');

/**
 * The fleet setting "critical fault codes" (`GET`/`PUT /api/fleets/{fid}/critical-fault-codes`): codes
 * or prefixes (`P03` covers P0300…P0399, core fault-codes.ts `isCriticalFaultCode`); a code that is
 * critical notifies when it opens. Duplicates are kept once.
 */
export const criticalFaultCodesBody = z.object({
  codes: z
    .array(criticalFaultCodeEntry)
    .max(CRITICAL_FAULT_CODES_MAX)
    .transform((codes) => [...new Set(codes)]),
});
export type CriticalFaultCodesBody = z.output<typeof criticalFaultCodesBody>;
export const criticalFaultCodesReply = z.object({ codes: z.array(z.string()) });
export type CriticalFaultCodesReply = z.infer<typeof criticalFaultCodesReply>;
