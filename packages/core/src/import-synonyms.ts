import type { ImportKind } from './contracts/imports.js';

/**
 * Where the import's column guess looks beyond a field's own title (docs/product.md "Imports").
 *
 * `IMPORT_TITLE_KEYS`: per kind and field, the UI texts beside the field's own title (`imports.field.*`)
 * that name its column elsewhere in Fleetkeep (a report export's "Object" and "Cost", a list's
 * "Service"): the guess matches them in every language (import-titles.ts holds their texts, built by
 * import-titles.test.ts).
 *
 * `IMPORT_SYNONYMS`: column titles of common exports (LubeLogger, Fleetio and generic spreadsheets), in
 * English as those products write them. They count only after every field's own titles: a file of ours
 * with both "Name" and "Description" keeps them apart.
 */

type Titles = Readonly<Partial<Record<ImportKind, Readonly<Record<string, readonly string[]>>>>>;

const UNIT_KEYS = ['reports.col.object', 'services.object', 'migration.vehicle'];

export const IMPORT_TITLE_KEYS: Titles = {
  intervals: {
    unit: UNIT_KEYS,
    name: ['reports.col.interval', 'intervals.name'],
  },
  services: {
    unit: UNIT_KEYS,
    name: ['reports.col.service', 'screen.service'],
    start_date: ['reports.col.date'],
    mileage: ['reports.col.mileage'],
    engine_hours: ['reports.col.engine_hours'],
    total_cost: ['reports.col.total_cost', 'reports.col.cost', 'services.cost'],
  },
  fuelfillings: {
    unit: UNIT_KEYS,
    date: ['reports.col.date'],
    total_cost: ['fuel.total', 'reports.col.cost', 'reports.col.total_cost'],
    mileage: ['fuel.mileage'],
    fuel_type: ['fuel.fuelType'],
    station: ['fuel.station'],
  },
  lineitems: {
    type: ['lineitems.type'],
  },
  // The columns of the issues list and the report dialog.
  issues: {
    object: ['issues.object'],
    title: ['issues.title'],
    description: ['issues.description'],
    priority: ['issues.priorityLabel'],
    reported_date: ['issues.reported'],
    status: ['issues.statusLabel'],
  },
  // The columns of the service objects list and of the unit's profile tab.
  units: {
    name: ['objects.name'],
    device_id: ['objects.deviceId'],
    unit_type: ['objects.unitType'],
    mileage: ['objects.mileage'],
    engine_hours: ['objects.engineHours'],
    vin: ['vehicle.vin'],
    make: ['vehicle.make'],
    model: ['vehicle.model'],
    model_year: ['vehicle.year'],
    plate: ['vehicle.plate'],
    fuel_type: ['vehicle.fuelType'],
    tags: ['vehicle.tags'],
    notes: ['vehicle.notes'],
  },
};

const UNIT = ['Vehicle', 'Vehicle name', 'Asset', 'Asset name', 'Object', 'Unit name', 'Equipment'];
const NOTES = ['Notes', 'Note', 'Comments', 'Comment', 'Remarks'];
const ODOMETER = [
  'Odometer',
  'Odometer reading',
  'Meter',
  'Meter entry',
  'Meter value',
  'Kilometres',
  'Miles',
];
const TOTAL = ['Cost', 'Total', 'Total amount', 'Amount', 'Total cost', 'Grand total'];

export const IMPORT_SYNONYMS: Titles = {
  intervals: {
    unit: UNIT,
    name: ['Service', 'Service task', 'Task', 'Reminder', 'Service reminder'],
    description: NOTES,
  },
  services: {
    unit: UNIT,
    name: ['Service', 'Service task', 'Service tasks', 'Task', 'Tasks', 'Work performed'],
    start_date: ['Date', 'Completed at', 'Completion date', 'Service date', 'Started at'],
    end_date: ['Completed', 'End date', 'Finished at'],
    mileage: ODOMETER,
    engine_hours: ['Hours', 'Hour meter', 'Engine hours reading', 'Secondary meter'],
    total_cost: TOTAL,
    description: NOTES,
  },
  fuelfillings: {
    unit: UNIT,
    date: ['Date', 'Fill date', 'Fuel date', 'Date time', 'Datetime', 'Transaction date'],
    volume: ['Fuel consumed', 'Quantity', 'Fuel volume', 'Litres', 'Liters', 'Gallons', 'Amount of fuel'],
    price: [
      'Price per volume unit',
      'Price per unit',
      'Unit price',
      'Price per litre',
      'Price per liter',
      'Price per gallon',
    ],
    total_cost: TOTAL,
    mileage: ODOMETER,
    fuel_type: ['Fuel', 'Fuel grade', 'Product'],
    station: ['Vendor', 'Station name', 'Fuel station', 'Location', 'Merchant'],
    description: NOTES,
  },
  lineitems: {
    name: ['Item', 'Part', 'Part name', 'Labour', 'Labor'],
    cost: ['Unit cost', 'Price', 'Unit price', 'Rate'],
  },
  // Fleetio's issues export ("Vehicle", "Summary", "Priority", "Reported date", "Status") and trackers'.
  issues: {
    object: [...UNIT, 'Unit', 'Trailer', 'Vehicle/Trailer'],
    title: ['Summary', 'Subject', 'Issue', 'Defect', 'Name'],
    description: [...NOTES, 'Details'],
    priority: ['Severity', 'Urgency'],
    reported_date: [
      'Reported date',
      'Reported on',
      'Reported at',
      'Date reported',
      'Date',
      'Created',
      'Created at',
    ],
    status: ['State', 'Issue status'],
  },
  // Fleetio's vehicle export ("Name", "VIN", "License Plate", "Year", "Group", "Labels"), LubeLogger's
  // vehicles ("Year", "Make", "Model", "LicensePlate", "Tags", "Notes") and the fleet export's units CSV.
  units: {
    name: [...UNIT, 'Vehicle ID', 'Unit'],
    device_id: [
      'Device',
      'Device identifier',
      'Unique ID',
      'Unique identifier',
      'IMEI',
      'Tracker',
      'Tracker ID',
      'uid',
    ],
    unit_type: ['Type', 'Vehicle type', 'Asset type', 'Body type', 'unit_type_id'],
    mileage: [...ODOMETER, 'Current meter value', 'Current meter', 'Primary meter value', 'Current odometer'],
    engine_hours: ['Hours', 'Hour meter', 'Secondary meter', 'Secondary meter value', 'Current hours'],
    vin: ['VIN/SN', 'Serial number', 'Vehicle identification number', 'Chassis number'],
    make: ['Manufacturer', 'Brand'],
    model_year: ['Year', 'Build year', 'Manufacture year'],
    plate: [
      'License plate',
      'LicensePlate',
      'Licence plate',
      'Registration',
      'Registration number',
      'Plate number',
      'Number plate',
    ],
    fuel_type: ['Fuel', 'Fuel type', 'Fuel grade'],
    tank_capacity: ['Fuel tank capacity', 'Fuel tank 1 capacity', 'Tank capacity', 'Tank size', 'Tank'],
    tags: ['Labels', 'Label', 'Group', 'Groups', 'Tag'],
    notes: [...NOTES, 'Description'],
  },
};
