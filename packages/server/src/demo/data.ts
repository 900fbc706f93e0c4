import { ACL_ALL, Acl, type UnitTypeName, withWorkshopRights } from '@fleetkeep/core';

/** The demo users of DESIGN §8, with their exact names and rights. */
export const DEMO_USERS = [
  { name: 'root', fullName: 'Root', account: 'top', su: 1, admin: 0, acl: null },
  { name: 'admin', fullName: 'Alex Admin', account: 'demo', su: 0, admin: 1, acl: Acl.admin },
  { name: 'manager', fullName: 'Maria Manager', account: 'demo', su: 0, admin: 0, acl: ACL_ALL },
  {
    name: 'mechanic',
    fullName: 'Mike Mechanic',
    account: 'demo',
    su: 0,
    admin: 0,
    acl: withWorkshopRights(Acl.viewInterval | Acl.viewService | Acl.manageService),
  },
  {
    name: 'viewer',
    fullName: 'Vera Viewer',
    account: 'demo',
    su: 0,
    admin: 0,
    acl: withWorkshopRights(Acl.viewInterval | Acl.viewService),
  },
  { name: 'outsider', fullName: 'Oscar Outsider', account: 'other', su: 0, admin: 0, acl: ACL_ALL },
] as const;

export const DEMO_FLEET = 'Demo Logistics fleet';
export const OTHER_FLEET = 'Northwind fleet';

/** Demo units: a model name, a type, and the counters they start with. */
export const DEMO_UNITS: { name: string; type: UnitTypeName; km: number; hours: number }[] = [
  { name: 'Volvo FH16 #1', type: 'heavy_truck', km: 412_300, hours: 9_870 },
  { name: 'Volvo FH16 #2', type: 'heavy_truck', km: 289_150, hours: 7_020 },
  { name: 'Scania R450', type: 'heavy_truck', km: 356_900, hours: 8_410 },
  { name: 'MAN TGX 18.510', type: 'lorry', km: 198_400, hours: 4_930 },
  { name: 'DAF XF 480', type: 'lorry', km: 241_000, hours: 5_660 },
  { name: 'Mercedes Actros', type: 'refrigerator', km: 167_800, hours: 4_120 },
  { name: 'Iveco S-Way', type: 'refrigerator', km: 93_200, hours: 2_310 },
  { name: 'Mercedes Sprinter', type: 'van', km: 134_500, hours: 3_050 },
  { name: 'Ford Transit', type: 'van', km: 88_700, hours: 2_080 },
  { name: 'Renault Master', type: 'van', km: 61_300, hours: 1_460 },
  { name: 'VW Crafter', type: 'microbus', km: 72_900, hours: 1_720 },
  { name: 'Toyota Hilux', type: 'pickup', km: 54_600, hours: 1_310 },
  { name: 'Ford Ranger', type: 'pickup', km: 39_800, hours: 940 },
  { name: 'Skoda Octavia', type: 'car', km: 101_200, hours: 2_230 },
  { name: 'Toyota Corolla', type: 'car', km: 45_100, hours: 1_050 },
  { name: 'VW Passat', type: 'car', km: 152_700, hours: 3_390 },
  { name: 'Mercedes Citaro', type: 'bus', km: 501_000, hours: 14_200 },
  { name: 'Solaris Urbino', type: 'bus', km: 276_400, hours: 9_100 },
  { name: 'Tatra Phoenix', type: 'tipper', km: 118_300, hours: 5_870 },
  { name: 'John Deere 6155R', type: 'tractor', km: 12_400, hours: 3_920 },
  { name: 'Palfinger crane truck', type: 'manipulator', km: 67_800, hours: 4_410 },
  { name: 'Street sweeper', type: 'specialized_vehicle', km: 31_900, hours: 6_150 },
  { name: 'Generator G-200', type: 'nonmoving', km: 0, hours: 11_340 },
  { name: 'Honda NC750X', type: 'motorbike', km: 23_600, hours: 610 },
  { name: 'Forklift FL-3', type: 'other', km: 1_200, hours: 7_880 },
];

export const DEMO_DRIVERS = [
  'Anna Kowalska',
  'Jonas Petrauskas',
  'Ivan Horvat',
  'Sofia Rossi',
  'Lukas Novak',
  'Elena Popescu',
];
export const DEMO_TRAILERS = [
  'Krone SD 01',
  'Schmitz S.KO 02',
  'Kögel Cargo 03',
  'Wielton NS 04',
  'Fliegl tipper 05',
  'Krone reefer 06',
];

/** Where the demo fleet drives: around the map's default centre (spec §9: [27, 54]). */
export const DEMO_CENTRE = { lat: 53.9, lon: 27.56 };
