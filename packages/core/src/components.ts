import { UNIT_TYPES } from './constants.js';

/**
 * Tyres and other components (docs/product.md "Components"): the states a component goes through, the
 * positions it is mounted at, the axle layout drawn per unit type, and the distance and cost per km its
 * mount periods give. Pure rules; the server applies them in modules/components/.
 */

export const COMPONENT_STATES = ['stock', 'mounted', 'retired'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** The kinds every fleet has; a fleet adds its own (component_kinds). */
export const BUILTIN_COMPONENT_KINDS = ['tyre', 'battery'] as const;
export const TYRE_KIND = 'tyre';

export const COMPONENT_ACTIONS = ['mount', 'dismount', 'retire'] as const;
export type ComponentAction = (typeof COMPONENT_ACTIONS)[number];

/**
 * The state after `action`, or null when it is not allowed: in stock → mounted (mount) → in stock
 * (dismount); retiring takes a component in stock or mounted (it is dismounted first) out for good.
 */
export function componentTransition(state: ComponentState, action: ComponentAction): ComponentState | null {
  if (action === 'mount') return state === 'stock' ? 'mounted' : null;
  if (action === 'dismount') return state === 'mounted' ? 'stock' : null;
  return state === 'retired' ? null : 'retired';
}

/** Axles a unit may have at most; positions beyond are refused. */
export const AXLES_MAX = 6;
export const POSITION_MAX = 40;

export type TyreSide = 'L' | 'R';
/** Inner or outer wheel of a twin (dual) tyre; none for a single tyre. */
export type TyreWheel = 'I' | 'O' | '';

export interface TyrePosition {
  axle: number;
  side: TyreSide;
  wheel: TyreWheel;
}

const TYRE_POSITION = /^([1-9])(L|R)(I|O)?$/;

/** "2LO" → axle 2, left, outer; null when the text is no tyre position or its axle is beyond AXLES_MAX. */
export function parseTyrePosition(text: string): TyrePosition | null {
  const m = TYRE_POSITION.exec(text);
  if (!m) return null;
  const axle = Number(m[1]);
  if (axle > AXLES_MAX) return null;
  return { axle, side: m[2] as TyreSide, wheel: (m[3] ?? '') as TyreWheel };
}

export const tyrePositionText = (p: TyrePosition): string => `${p.axle}${p.side}${p.wheel}`;

/**
 * A position as the kind wants it: a tyre's is an axle and side (with inner/outer on twin axles), in
 * the canonical text; another kind's is free text (trimmed, 1–40 characters). Null when refused.
 */
export function normalizePosition(kind: string, text: string): string | null {
  const trimmed = text.trim();
  if (kind === TYRE_KIND) {
    const p = parseTyrePosition(trimmed.toUpperCase());
    return p ? tyrePositionText(p) : null;
  }
  return trimmed.length >= 1 && trimmed.length <= POSITION_MAX ? trimmed : null;
}

/** One axle of the diagram: twin axles carry an inner and an outer tyre each side. */
export interface AxleLayout {
  axle: number;
  twin: boolean;
}

const TWO_AXLE_TWIN = new Set(['bus', 'lorry', 'refrigerator', 'microbus']);
const THREE_AXLE = new Set(['heavy_truck', 'tipper', 'manipulator', 'specialized_vehicle']);

/**
 * The axles drawn for a unit type (`unit_type_id` is the 1-based index into UNIT_TYPES): two single
 * axles for cars, vans and unknown types; a twin rear axle for buses and lorries; three axles (two twin
 * rear axles) for heavy trucks, tippers and the like.
 */
export function axleLayout(unitTypeId: number | null | undefined): AxleLayout[] {
  const name = unitTypeId ? UNIT_TYPES[unitTypeId - 1] : undefined;
  if (name && THREE_AXLE.has(name))
    return [
      { axle: 1, twin: false },
      { axle: 2, twin: true },
      { axle: 3, twin: true },
    ];
  if (name && TWO_AXLE_TWIN.has(name))
    return [
      { axle: 1, twin: false },
      { axle: 2, twin: true },
    ];
  return [
    { axle: 1, twin: false },
    { axle: 2, twin: false },
  ];
}

/** The tyre positions of a layout, front axle first, left before right, outer before inner. */
export function layoutPositions(layout: readonly AxleLayout[]): string[] {
  const out: string[] = [];
  for (const { axle, twin } of layout) {
    if (twin) out.push(`${axle}LO`, `${axle}LI`, `${axle}RI`, `${axle}RO`);
    else out.push(`${axle}L`, `${axle}R`);
  }
  return out;
}

/** A mount period: the odometer (km) at mount and at dismount (null: still mounted). */
export interface MountPeriod {
  mountOdometer: number;
  dismountOdometer: number | null;
}

/**
 * The distance a component ran, km: over its mount periods, the odometer at dismount (or the unit's
 * current one, `current`, while mounted) less the odometer at mount; a period whose odometer went
 * back (a corrected meter) counts 0, never less. Only the last period is open at a time.
 */
export function componentDistance(periods: readonly MountPeriod[], current: number | null): number {
  let sum = 0;
  for (const p of periods) {
    const end = p.dismountOdometer ?? current ?? p.mountOdometer;
    sum += Math.max(0, end - p.mountOdometer);
  }
  return Math.round(sum * 1000) / 1000;
}

/** Cost per km in thousandths of the currency, or null before any distance. */
export function costPerKm(costThousandths: number, distanceKm: number): number | null {
  if (distanceKm <= 0) return null;
  return Math.round(costThousandths / distanceKm);
}

/** Default tread-depth threshold of a fleet, thousandths of a mm (3 mm). */
export const DEFAULT_TREAD_THRESHOLD = 3000;

/** A reading strictly under the fleet's threshold is low (notification kind 4096). */
export const isTreadLow = (depthThousandths: number, thresholdThousandths: number): boolean =>
  depthThousandths < thresholdThousandths;
