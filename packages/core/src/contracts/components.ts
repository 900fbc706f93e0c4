import { z } from 'zod';
import { COMPONENT_STATES } from '../components.js';
import { Limits } from '../constants.js';
import { acceptingReadOnly, counter, decimal3, id, okReply, pathId, unixTime } from './common.js';

/**
 * Wire contracts of the components API (`/api/fleets/{fid}/components`, docs/product.md "Components"):
 * tyres, batteries and the fleet's own kinds, with their mount history on units, their distance and
 * cost per km, and their tread-depth readings. Money in the fleet currency (at most 3 decimals, stored
 * as thousandths); odometers in km; tread depth in mm (3 decimals).
 */

export const COMPONENT_TEXT_MAX = Limits.stringMax;
export const COMPONENT_KIND_MAX = 40;
/** Rows one list reply holds at most (`limit`'s maximum and default). */
export const COMPONENT_LIST_MAX = 10_000;
/** Tread depth read at most, mm. */
export const TREAD_DEPTH_MAX = 100;

export const componentState = z.enum(COMPONENT_STATES);
const text = z.string().trim().max(COMPONENT_TEXT_MAX);
const kind = z.string().trim().min(1).max(COMPONENT_KIND_MAX);
const depth = decimal3().refine((v) => Number(v) <= TREAD_DEPTH_MAX, `At most ${TREAD_DEPTH_MAX} mm`);

const componentFields = {
  serial: text.optional().describe('Serial number, or the DOT code of a tyre'),
  brand: text.optional(),
  model: text.optional(),
  cost: decimal3().optional().describe('Purchase cost in the fleet currency'),
};

/** POST .../components: a component in stock. */
export const componentCreateBody = z.strictObject({
  kind: kind.describe('tyre, battery, or a kind the fleet defined'),
  ...componentFields,
});
export type ComponentCreateInput = z.infer<typeof componentCreateBody>;

const COMPONENT_DERIVED = [
  'id',
  'state',
  'unit_id',
  'unit_name',
  'position',
  'mounted_at',
  'distance',
  'cost_per_km',
  'tread',
  'tread_at',
  'tread_low',
  'mounts',
  'treads',
  'created',
  'updated',
] as const;

/** PUT .../components/{id}: serial, brand, model, cost, kind; the component as read is accepted. */
export const componentUpdateBody = acceptingReadOnly(
  z.strictObject({ kind: kind.optional(), ...componentFields }),
  COMPONENT_DERIVED,
);
export type ComponentUpdateInput = z.output<typeof componentUpdateBody>;

/** POST .../components/{id}/mount: on a unit of the fleet at a free position. */
export const componentMountBody = z.strictObject({
  unit_id: id.describe('The unit'),
  position: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .describe('Tyre: axle and side, e.g. 1L, 2RO (outer) or 2RI (inner); other kinds: free text'),
  odometer: counter.optional().describe("Odometer at mounting, km (default the unit's current mileage)"),
  at: unixTime.optional().describe('When, Unix seconds (default now)'),
});
export type ComponentMountInput = z.infer<typeof componentMountBody>;

/** POST .../components/{id}/dismount and /retire: the odometer at dismounting (default the unit's). */
export const componentDismountBody = z
  .strictObject({
    odometer: counter.optional().describe("Odometer at dismounting, km (default the unit's current mileage)"),
    at: unixTime.optional().describe('When, Unix seconds (default now)'),
  })
  .optional();
export type ComponentDismountInput = z.infer<typeof componentDismountBody>;

/** POST .../components/{id}/treads: a tread-depth reading. */
export const componentTreadBody = z.strictObject({
  depth: depth.describe('Tread depth, mm'),
  at: unixTime.optional().describe('When, Unix seconds (default now)'),
});
export type ComponentTreadInput = z.infer<typeof componentTreadBody>;

/** GET .../components: filters, newest first, paged. */
export const componentListQuery = z.object({
  kind: kind.optional(),
  state: componentState.optional(),
  unit_id: pathId.optional().describe('The components mounted on this unit'),
  offset: z.coerce.number().int().min(0).max(Limits.intSigned).optional(),
  limit: z.coerce.number().int().min(1).max(COMPONENT_LIST_MAX).optional(),
});
export type ComponentListQuery = z.output<typeof componentListQuery>;

/** POST .../components/kinds: a fleet-defined kind. */
export const componentKindBody = z.strictObject({ name: kind });
export const componentKindParams = z.object({ fid: pathId, kid: pathId });

/** PUT .../components/settings: the fleet's tread-depth threshold, mm. */
export const componentSettingsBody = z.strictObject({ tread_threshold: depth });
export const componentSettingsReply = z.object({
  tread_threshold: z.number().describe('A reading under it notifies (kind 4096), mm'),
});
export type ComponentSettingsReply = z.infer<typeof componentSettingsReply>;

// ---- Replies ----

export const componentMountWire = z.object({
  id,
  unit_id: id,
  unit_name: z.string(),
  position: z.string(),
  mounted_at: unixTime,
  mount_odometer: z.number(),
  dismounted_at: unixTime.nullable(),
  dismount_odometer: z.number().nullable(),
  distance: z.number().describe('km run in this period (so far, while mounted)'),
});
export type ComponentMountWire = z.infer<typeof componentMountWire>;

export const componentTreadWire = z.object({ id, depth: z.number(), at: unixTime, low: z.boolean() });
export type ComponentTreadWire = z.infer<typeof componentTreadWire>;

export const componentWire = z.object({
  id,
  kind: z.string(),
  serial: z.string(),
  brand: z.string(),
  model: z.string(),
  cost: z.number().describe('Fleet currency'),
  state: componentState,
  unit_id: id.nullable().describe('Where it is mounted'),
  unit_name: z.string().nullable(),
  position: z.string().nullable(),
  mounted_at: unixTime.nullable(),
  distance: z.number().describe('km over all mount periods'),
  cost_per_km: z.number().nullable().describe('Cost / distance (null before any distance)'),
  tread: z.number().nullable().describe('Latest tread depth, mm'),
  tread_at: unixTime.nullable(),
  tread_low: z.boolean().describe('Latest reading under the fleet threshold'),
  created: unixTime,
  updated: unixTime,
});
export type ComponentWire = z.infer<typeof componentWire>;

export const componentDetailWire = componentWire.extend({
  mounts: z.array(componentMountWire).describe('Mount periods, newest first'),
  treads: z.array(componentTreadWire).describe('Tread readings, oldest first'),
});
export type ComponentDetailWire = z.infer<typeof componentDetailWire>;

export const componentListReply = z.object({
  components: z.array(componentWire),
  total: z.number().int(),
});
export type ComponentListReply = z.infer<typeof componentListReply>;

export const componentKindWire = z.object({ id, name: z.string() });
export const componentKindsReply = z.object({
  builtin: z.array(z.string()),
  kinds: z.array(componentKindWire).describe('The fleet-defined kinds'),
});
export type ComponentKindsReply = z.infer<typeof componentKindsReply>;
export const componentDeleteReply = okReply;
