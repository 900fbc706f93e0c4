import { type IntervalTimeUnit, LineItemKind, type UnitTypeName } from '@fleetkeep/core';

/**
 * What the demo fleet maintains (PRODUCT.md "Line-items library", "Intervals", "Services", "Fuel
 * fillings"): the library, a dozen intervals with the objects they fit, the status each chosen
 * assignment shows right after `npm start`, the one-off repairs of the history and the fuel each unit
 * type burns. Data only; demo/maintenance.ts writes it through the modules' service functions.
 */

const { task, part, fuel } = LineItemKind;

/** The line-items library: parts, labour and fuel presets, prices in the fleet currency (EUR). */
export const DEMO_LIBRARY: { n: string; t: 1 | 2 | 4; c: number }[] = [
  { n: 'Engine oil 5W-30 (litre)', t: part, c: 8.9 },
  { n: 'Engine oil 10W-40 (litre)', t: part, c: 6.5 },
  { n: 'Oil filter', t: part, c: 18.5 },
  { n: 'Oil filter, heavy duty', t: part, c: 42 },
  { n: 'Air filter', t: part, c: 29 },
  { n: 'Air filter, heavy duty', t: part, c: 96 },
  { n: 'Cabin filter', t: part, c: 16 },
  { n: 'Fuel filter', t: part, c: 34 },
  { n: 'Brake pads, front axle', t: part, c: 85 },
  { n: 'Brake pads, heavy axle', t: part, c: 240 },
  { n: 'Brake discs (pair)', t: part, c: 180 },
  { n: 'Brake fluid DOT 4 (litre)', t: part, c: 12 },
  { n: 'Coolant (litre)', t: part, c: 4.2 },
  { n: 'AdBlue (litre)', t: part, c: 0.55 },
  { n: 'Tyre 205/55 R16', t: part, c: 95 },
  { n: 'Tyre 315/70 R22.5', t: part, c: 420 },
  { n: 'Wiper blades (pair)', t: part, c: 24 },
  { n: 'Battery 12 V 95 Ah', t: part, c: 165 },
  { n: 'Headlight bulb H7', t: part, c: 9.5 },
  { n: 'Hydraulic oil HVLP 46 (litre)', t: part, c: 5.8 },
  { n: 'Hydraulic filter', t: part, c: 58 },
  { n: 'Grease cartridge', t: part, c: 7.4 },
  { n: 'V-belt', t: part, c: 38 },
  { n: 'Refrigerant R452A (kg)', t: part, c: 68 },
  { n: 'Windscreen', t: part, c: 390 },
  { n: 'Labour (per hour)', t: task, c: 65 },
  { n: 'Labour, heavy vehicle (per hour)', t: task, c: 85 },
  { n: 'Diagnostics', t: task, c: 45 },
  { n: 'Wheel alignment', t: task, c: 70 },
  { n: 'Tyre fitting (per wheel)', t: task, c: 15 },
  { n: 'Inspection fee', t: task, c: 95 },
  { n: 'Tachograph calibration', t: task, c: 120 },
  { n: 'Licence verification', t: task, c: 8 },
  { n: 'Diesel', t: fuel, c: 1.62 },
  { n: 'Petrol 95', t: fuel, c: 1.74 },
  { n: 'AdBlue', t: fuel, c: 0.55 },
];

/** Heavy units get the heavy-duty parts and the heavy-vehicle labour rate. */
export const HEAVY_TYPES: ReadonlySet<UnitTypeName> = new Set([
  'heavy_truck',
  'lorry',
  'refrigerator',
  'bus',
  'tipper',
  'manipulator',
  'tractor',
]);
const TRUCKS: UnitTypeName[] = ['heavy_truck', 'lorry', 'refrigerator', 'bus', 'tipper'];

/** A line of a template: `heavy` replaces name and quantity for heavy units. */
export interface TemplateLine {
  n: string;
  t: 1 | 2;
  q: number;
  heavy?: { n?: string; q?: number };
}

export type DemoKind = 'mileage' | 'engineHours' | 'days';

export interface DemoInterval {
  key: string;
  n: string;
  description: string;
  mileage?: { every: number; notice: number };
  engineHours?: { every: number; notice: number };
  days?: { every: number; unit: IntervalTimeUnit; notice: number };
  /** Which objects it is assigned to: unit types, or all drivers / trailers. */
  objects: { units?: UnitTypeName[] | 'road' } | { drivers: true } | { trailers: true };
  lines: TemplateLine[];
}

const labour = (q: number): TemplateLine => ({
  n: 'Labour (per hour)',
  t: 1,
  q,
  heavy: { n: 'Labour, heavy vehicle (per hour)', q: q * 1.5 },
});

/** The demo's dozen intervals (mileage, engine hours and time rules; units, drivers, trailers). */
export const DEMO_INTERVALS: DemoInterval[] = [
  {
    key: 'oil',
    n: 'Oil and filter change',
    description: 'Engine oil and oil filter; every 15,000 km or 12 months, whichever comes first.',
    mileage: { every: 15_000, notice: 1_000 },
    days: { every: 12, unit: 'm', notice: 14 },
    objects: { units: 'road' },
    lines: [
      { n: 'Engine oil 5W-30 (litre)', t: 2, q: 5, heavy: { q: 38 } },
      { n: 'Oil filter', t: 2, q: 1, heavy: { n: 'Oil filter, heavy duty' } },
      labour(1),
    ],
  },
  {
    key: 'tyres',
    n: 'Tyre rotation',
    description: 'Rotate and balance the wheels, check tread depth and pressure.',
    mileage: { every: 10_000, notice: 500 },
    objects: { units: ['car', 'pickup', 'van', 'microbus'] },
    lines: [{ n: 'Tyre fitting (per wheel)', t: 1, q: 4 }, labour(0.5)],
  },
  {
    key: 'brakes',
    n: 'Brake inspection',
    description: 'Pads, discs, lines and brake fluid; pads replaced when below 4 mm.',
    mileage: { every: 30_000, notice: 1_500 },
    objects: { units: TRUCKS },
    lines: [
      { n: 'Brake pads, heavy axle', t: 2, q: 2 },
      { n: 'Brake fluid DOT 4 (litre)', t: 2, q: 2 },
      labour(2),
    ],
  },
  {
    key: 'air',
    n: 'Air and fuel filter replacement',
    description: 'Every 40,000 km or two years.',
    mileage: { every: 40_000, notice: 2_000 },
    days: { every: 24, unit: 'm', notice: 30 },
    objects: { units: [...TRUCKS, 'manipulator'] },
    lines: [{ n: 'Air filter, heavy duty', t: 2, q: 1 }, { n: 'Fuel filter', t: 2, q: 1 }, labour(1)],
  },
  {
    key: 'annual',
    n: 'Annual roadworthiness inspection',
    description: 'The yearly technical inspection at the testing station.',
    days: { every: 1, unit: 'y', notice: 30 },
    objects: { units: 'road' },
    lines: [{ n: 'Inspection fee', t: 1, q: 1 }, labour(1)],
  },
  {
    key: 'tacho',
    n: 'Tachograph calibration',
    description: 'Calibration and sealing of the digital tachograph every two years.',
    days: { every: 2, unit: 'y', notice: 30 },
    objects: { units: TRUCKS },
    lines: [{ n: 'Tachograph calibration', t: 1, q: 1 }],
  },
  {
    key: 'hours',
    n: 'Engine service by hours',
    description: 'Oil, filters and belts of machines that count engine hours rather than kilometres.',
    engineHours: { every: 250, notice: 15 },
    objects: { units: ['nonmoving', 'other', 'tractor', 'specialized_vehicle'] },
    lines: [
      { n: 'Engine oil 10W-40 (litre)', t: 2, q: 12 },
      { n: 'Oil filter, heavy duty', t: 2, q: 1 },
      { n: 'V-belt', t: 2, q: 1 },
      labour(2),
    ],
  },
  {
    key: 'hydraulics',
    n: 'Hydraulics service',
    description: 'Hydraulic oil and filter, hoses and cylinders checked.',
    engineHours: { every: 1_000, notice: 50 },
    objects: { units: ['manipulator', 'tipper', 'tractor', 'other'] },
    lines: [
      { n: 'Hydraulic oil HVLP 46 (litre)', t: 2, q: 60 },
      { n: 'Hydraulic filter', t: 2, q: 1 },
      { n: 'Grease cartridge', t: 2, q: 2 },
      labour(3),
    ],
  },
  {
    key: 'fridge',
    n: 'Refrigeration unit service',
    description: 'Cooling unit: refrigerant level, compressor belt, condenser cleaning.',
    days: { every: 6, unit: 'm', notice: 14 },
    objects: { units: ['refrigerator'] },
    lines: [{ n: 'Refrigerant R452A (kg)', t: 2, q: 1.5 }, labour(2)],
  },
  {
    key: 'trailerBrakes',
    n: 'Trailer brake inspection',
    description: 'Brake linings, air system and ABS of the trailer.',
    days: { every: 6, unit: 'm', notice: 14 },
    objects: { trailers: true },
    lines: [{ n: 'Brake pads, heavy axle', t: 2, q: 1 }, labour(2)],
  },
  {
    key: 'trailerAnnual',
    n: 'Trailer annual inspection',
    description: 'The yearly technical inspection of the trailer.',
    days: { every: 1, unit: 'y', notice: 30 },
    objects: { trailers: true },
    lines: [{ n: 'Inspection fee', t: 1, q: 1 }],
  },
  {
    key: 'licence',
    n: 'Driver licence check',
    description: 'Check the driving licence and its categories against the original.',
    days: { every: 6, unit: 'm', notice: 14 },
    objects: { drivers: true },
    lines: [{ n: 'Licence verification', t: 1, q: 1 }],
  },
];

/**
 * The assignments whose state right after seeding is chosen: `r` is the remaining value of the kind
 * (km, hours or days) at the moment of seeding; below 0 overdue, within the notice Due. `confirm`
 * puts the Due service In progress. Toyota Corolla, Mercedes Sprinter and Ford Ranger are 3–4 km
 * outside the notice of their tyre rotation: the simulator (demo/simulator.ts, a reading every 5 s
 * at 50–130 km/h) drives them into Due within minutes of `npm start`.
 */
export const DEMO_TARGETS: { interval: string; object: string; kind: DemoKind; r: number; confirm?: true }[] =
  [
    { interval: 'oil', object: 'Volvo FH16 #1', kind: 'mileage', r: -600 },
    { interval: 'oil', object: 'DAF XF 480', kind: 'mileage', r: 400 },
    { interval: 'oil', object: 'Ford Transit', kind: 'mileage', r: 300, confirm: true },
    { interval: 'tyres', object: 'VW Crafter', kind: 'mileage', r: -200 },
    { interval: 'tyres', object: 'Toyota Corolla', kind: 'mileage', r: 506 },
    { interval: 'tyres', object: 'Mercedes Sprinter', kind: 'mileage', r: 510 },
    { interval: 'hydraulics', object: 'Palfinger crane truck', kind: 'engineHours', r: -30 },
    { interval: 'hydraulics', object: 'Tatra Phoenix', kind: 'engineHours', r: 20 },
    { interval: 'hours', object: 'Generator G-200', kind: 'engineHours', r: -12 },
    { interval: 'hours', object: 'Forklift FL-3', kind: 'engineHours', r: 8 },
    { interval: 'tacho', object: 'Scania R450', kind: 'days', r: -9 },
    { interval: 'tacho', object: 'Mercedes Citaro', kind: 'days', r: 12 },
    { interval: 'annual', object: 'Skoda Octavia', kind: 'days', r: -20 },
    { interval: 'annual', object: 'VW Passat', kind: 'days', r: 10 },
    { interval: 'fridge', object: 'Iveco S-Way', kind: 'days', r: 5 },
    { interval: 'trailerBrakes', object: 'Kögel Cargo 03', kind: 'days', r: -15 },
    { interval: 'trailerBrakes', object: 'Krone SD 01', kind: 'days', r: 5, confirm: true },
    { interval: 'licence', object: 'Ivan Horvat', kind: 'days', r: -5 },
    { interval: 'licence', object: 'Sofia Rossi', kind: 'days', r: 7 },
  ];

/** One-off repairs scattered over the history (no interval). */
export const DEMO_REPAIRS: { n: string; lines: TemplateLine[] }[] = [
  { n: 'Windscreen replacement', lines: [{ n: 'Windscreen', t: 2, q: 1 }, labour(2)] },
  {
    n: 'Battery replacement',
    lines: [{ n: 'Battery 12 V 95 Ah', t: 2, q: 1, heavy: { q: 2 } }, labour(0.5)],
  },
  { n: 'Puncture repair', lines: [{ n: 'Tyre fitting (per wheel)', t: 1, q: 1 }, labour(0.5)] },
  {
    n: 'Tyre replacement',
    lines: [
      { n: 'Tyre 205/55 R16', t: 2, q: 2, heavy: { n: 'Tyre 315/70 R22.5' } },
      { n: 'Tyre fitting (per wheel)', t: 1, q: 2 },
    ],
  },
  { n: 'Engine warning light', lines: [{ n: 'Diagnostics', t: 1, q: 1 }, labour(1)] },
  { n: 'Headlight bulb replacement', lines: [{ n: 'Headlight bulb H7', t: 2, q: 2 }, labour(0.25)] },
  { n: 'Wiper blades', lines: [{ n: 'Wiper blades (pair)', t: 2, q: 1 }] },
  { n: 'Coolant leak repair', lines: [{ n: 'Coolant (litre)', t: 2, q: 6, heavy: { q: 20 } }, labour(2)] },
  { n: 'Wheel alignment', lines: [{ n: 'Wheel alignment', t: 1, q: 1 }] },
  { n: 'Cabin filter', lines: [{ n: 'Cabin filter', t: 2, q: 1 }, labour(0.25)] },
];

/** Fuel: litres per 100 km (or per engine hour for machines that do not drive) and the fuel type. */
export const DEMO_FUEL: Record<UnitTypeName, { per100km?: number; perHour?: number; type: string }> = {
  heavy_truck: { per100km: 31, type: 'Diesel' },
  lorry: { per100km: 27, type: 'Diesel' },
  refrigerator: { per100km: 29, type: 'Diesel' },
  tipper: { per100km: 36, type: 'Diesel' },
  bus: { per100km: 34, type: 'Diesel' },
  manipulator: { per100km: 30, type: 'Diesel' },
  van: { per100km: 10.5, type: 'Diesel' },
  microbus: { per100km: 9.5, type: 'Diesel' },
  pickup: { per100km: 9, type: 'Diesel' },
  car: { per100km: 6.4, type: 'Petrol 95' },
  motorbike: { per100km: 4.6, type: 'Petrol 95' },
  tractor: { perHour: 14, type: 'Diesel' },
  specialized_vehicle: { perHour: 7, type: 'Diesel' },
  nonmoving: { perHour: 9, type: 'Diesel' },
  other: { perHour: 3.5, type: 'Diesel' },
};

export const DEMO_STATIONS = ['Neste', 'Circle K', 'Shell', 'Orlen', 'Lukoil'];
