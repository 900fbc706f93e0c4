import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table shapes shared by both dialects. Times are Unix seconds (UTC); flags are 0/1 integers;
 * JSON documents are stored as text so that SQLite and PostgreSQL read them the same way.
 */
export interface AccountTable {
  id: Generated<number>;
  name: string;
  parent_id: number | null;
  active: number;
  created_at: number;
}

export interface UserTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  full_name: string;
  password_hash: string;
  su: number;
  admin: number;
  settings: string;
  /** Current fleet. */
  fid: number | null;
  created_at: number;
  /** 010: 0 when deactivated (cannot log in; modules/admin/users.ts). */
  active: Generated<number>;
}

export interface FleetTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  tz: number;
  cur: string;
  ms: number;
  fm: number;
  created_at: number;
  /** JSON list of codes or prefixes (migration 030, modules/fault-codes). */
  critical_fault_codes: Generated<string>;
  /** The daily distance limit of the meter's automatic voids, km (migration 032; default 4,800). */
  meter_daily_distance_max: Generated<number>;
  /** Months the fleet keeps inspections (migration 035; at least 3, default 12). */
  inspection_retention_months: Generated<number>;
  /** 1 when moves may take stock below zero (migration 039; default 0). */
  allow_negative_stock: Generated<number>;
}

export interface FleetUserTable {
  fleet_id: number;
  user_id: number;
  acl: number;
  /** When the member could first see the fleet; 0 for members from before migration 028. */
  since: Generated<number>;
  /** 036: 1 when the member reaches only the units assigned to them (auth/reach.ts). */
  assigned_only: Generated<number>;
}

export interface UnitTypeTable {
  id: Generated<number>;
  name: string;
  /** Teltonika IO mapping, JSON of core `TeltonikaIoMapping`; null for none (migration 029). */
  teltonika_io: string | null;
}

export interface UnitTable {
  id: Generated<number>;
  account_id: number;
  fleet_id: number | null;
  name: string;
  device_id: string;
  unit_type_id: number | null;
  /** Total mileage in km. */
  mileage: number;
  /** Total engine hours. */
  engine_hours: number;
  /** Counters when the unit joined its fleet: actual = total - base + pulled (PRODUCT.md). */
  base_mileage: number;
  base_engine_hours: number;
  pulled_mileage: number;
  pulled_engine_hours: number;
  joined_at: number | null;
  /** Time of the last accepted message. */
  last_time: number | null;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  ignition: number | null;
  props: string;
  params: string;
  cf: string;
  /** In-progress marker (spec §4 "ins"). */
  ins: number;
  created_at: number;
  /** statistics (008): day of the unit's latest counter_days row, whose last counters are the live ones. */
  counter_day: number | null;
  /** statistics (008): end of that day (start of the next fleet day), so readings need no zone until then. */
  counter_day_end: number | null;
  /** statistics (008): sum of the hand corrections (new − old); the history stores counters less these. */
  counter_off_mileage: Generated<number>;
  counter_off_engine_hours: Generated<number>;
  /** meter (016): time of the last accepted message, Unix milliseconds. */
  last_ms: number | null;
  /** meter (016): device whose odometer / engine hours set the counter's baseline (null: none yet). */
  meter_odo_device: string | null;
  meter_hours_device: string | null;
  /** vehicle profile (031): texts '' when not given; tags JSON; tank capacity in thousandths of tank_unit. */
  vin: Generated<string>;
  make: Generated<string>;
  model: Generated<string>;
  plate: Generated<string>;
  fuel_type: Generated<string>;
  notes: Generated<string>;
  tags: Generated<string>;
  model_year: Generated<number | null>;
  tank_capacity: Generated<number | null>;
  tank_unit: Generated<number | null>;
  /** vehicle profile (031): the unit photo's row in `attachments` (owner_type 'unit'). */
  photo_id: Generated<number | null>;
}

export interface PersonTable {
  id: Generated<number>;
  account_id: number;
  fleet_id: number | null;
  name: string;
  ds: string;
  c: string;
  cf: string;
  ins: number;
  created_at: number;
}

export interface AccessTokenTable {
  id: Generated<number>;
  user_id: number;
  /** 'login' for a password login, 'api' for a personal API token. */
  kind: string;
  token_hash: string;
  description: string;
  rights: string;
  created_at: number;
  last_used_at: number | null;
  requests: number;
  expires_at: number | null;
}

export interface SessionTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  access_token_id: number | null;
  created_at: number;
  last_seen_at: number;
  props: string;
}

export interface PositionTable {
  id: Generated<number>;
  unit_id: number;
  tm: number;
  lat: number;
  lon: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  ignition: number | null;
  mileage: number;
  engine_hours: number;
}

export interface IngestLogTable {
  id: Generated<number>;
  received_at: number;
  device_id: string;
  unit_id: number | null;
  msg_time: number | null;
  reason: string;
  payload: string;
}

/** A unit's meter history (migration 016; core contracts/meter.ts). */
export interface MeterReadingTable {
  id: Generated<number>;
  fleet_id: number | null;
  unit_id: number;
  /** The time the reading carries, Unix milliseconds. */
  tm_ms: number;
  received_at: number;
  /** osmand | teltonika | traccar | manual | fuel | import; device: legacy (migration 032) */
  source: string;
  /** accepted | baseline | refused | replaced */
  status: string;
  mileage: number | null;
  engine_hours: number | null;
  old_mileage: number | null;
  old_engine_hours: number | null;
  reason: string | null;
  payload: string | null;
  device_id: string;
  accepted_by: number | null;
  accepted_at: number | null;
  /** Baselines: the step the unit's interval baselines moved by (migration 023); null when none moved. */
  shift_mileage: number | null;
  shift_engine_hours: number | null;
  /** 1 while the recorded shift is not yet applied to the unit's intervals (027, telematics/baseline-shift.ts). */
  shift_pending: Generated<number>;
  /** Voided (migration 032): kept, counted for nothing; `void_auto` 1 when the counter rules voided it. */
  voided_at: number | null;
  voided_by: number | null;
  void_reason: string | null;
  void_auto: Generated<number>;
}

/** A unit's diagnostic trouble code (migration 030, telematics/fault-codes.ts). */
export interface FaultCodeTable {
  id: Generated<number>;
  fleet_id: number | null;
  unit_id: number;
  code: string;
  /** Unix seconds: the times of the first and the last reading that reported it. */
  first_seen: number;
  last_seen: number;
  count: number;
  /** Unix seconds of the clear; null while the code is active. */
  cleared_at: number | null;
  cleared_by: number | null;
}

/** An issue of a unit or trailer (migration 034, modules/issues). */
export interface IssueTable {
  id: Generated<number>;
  fleet_id: number;
  /** 'u' unit, 't' trailer. */
  object_type: string;
  object_id: number;
  title: string;
  description: Generated<string>;
  /** Rank 1 low, 2 medium, 3 high, 4 critical (core issues.ts). */
  priority: number;
  /** core `IssueStatus`. */
  status: string;
  note: Generated<string>;
  reported_by: number | null;
  reported_at: number;
  /** km and hours at the report. */
  mileage: number | null;
  engine_hours: number | null;
  work_order_id: number | null;
  inspection_id: number | null;
  inspection_item: string | null;
  ended_at: number | null;
  ended_by: number | null;
  /** Lower-cased title and description (the list's search). */
  search: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** A work order of a unit or trailer (migration 037, modules/work-orders). */
/** components (041): a tyre, battery or fleet-defined component; cost in thousandths. */
export interface ComponentTable {
  id: Generated<number>;
  fleet_id: number;
  kind: string;
  serial: Generated<string>;
  brand: Generated<string>;
  model: Generated<string>;
  cost: Generated<number>;
  /** core `ComponentState`. */
  state: string;
  created_at: number;
  updated_at: number;
}

/** components (041): a mount period on a unit; odometers in km; open while `dismounted_at` is null. */
export interface ComponentMountTable {
  id: Generated<number>;
  component_id: number;
  fleet_id: number;
  unit_id: number;
  position: string;
  mounted_at: number;
  mount_odometer: number;
  dismounted_at: number | null;
  dismount_odometer: number | null;
}

/** components (041): a tread-depth reading, thousandths of a mm. */
export interface ComponentTreadTable {
  id: Generated<number>;
  component_id: number;
  fleet_id: number;
  depth: number;
  at: number;
}

export interface ComponentKindTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
}

/** components (041): the fleet's tread threshold, thousandths of a mm. */
export interface ComponentSettingsTable {
  fleet_id: number;
  tread_threshold: number;
}

export interface WorkOrderTable {
  id: Generated<number>;
  fleet_id: number;
  /** 'u' unit, 't' trailer. */
  object_type: string;
  object_id: number;
  title: string;
  description: Generated<string>;
  /** core `WorkOrderStatus`. */
  status: string;
  assignee_id: number | null;
  created_by: number | null;
  scheduled_start: number | null;
  scheduled_end: number | null;
  actual_start: number | null;
  actual_end: number | null;
  /** km and hours at completion. */
  mileage: number | null;
  engine_hours: number | null;
  /** Fixed at completion: the first linked issue's report, or the actual start. */
  downtime_start: number | null;
  /** The archived service record of the unplanned work. */
  service_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A service a work order carries out (migration 037). */
export interface WorkOrderServiceTable {
  work_order_id: number;
  service_id: number;
  fleet_id: number;
  position: number;
}

/** A line item of a work order (migration 037), as service_line_items. */
export interface WorkOrderLineItemTable extends ItemLineTable, StockLineColumns {
  work_order_id: number;
  fleet_id: number;
}

export interface CounterCorrectionTable {
  id: Generated<number>;
  unit_id: number;
  user_id: number;
  tm: number;
  field: string;
  old_value: number;
  new_value: number;
}

export interface LineItemTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  /** 1 labour (task), 2 part, 4 fuel (spec §3). */
  kind: number;
  /** Integer thousandths of the fleet currency (per fuel unit for fuel). */
  cost: number;
  created_at: number;
}

export interface IntervalTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  description: string;
  cnme: number;
  /** Mileage frequency and advance notice, km. */
  cnmd: number;
  cnmo: number;
  cnehe: number;
  cnehd: number;
  cneho: number;
  de: number;
  dd: number;
  /** d, w, m or y (spec §9). */
  du: string;
  /** Advance notice, days. */
  do: number;
  creator_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A line item of an interval or a service; qty and cost in integer thousandths. */
export interface ItemLineTable {
  id: Generated<number>;
  position: number;
  name: string;
  kind: number;
  qty: number;
  cost: number;
}

/** Service and work-order lines may take a part from a stock location (migration 039). */
export interface StockLineColumns {
  part_id: Generated<number | null>;
  location_id: Generated<number | null>;
}

/** Parts and stock (migration 039, modules/parts): thousandths and Unix seconds. */
export interface StockLocationTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  kind: string;
  created_at: number;
}
export interface PartTable {
  id: Generated<number>;
  fleet_id: number;
  number: string;
  name: string;
  manufacturer: Generated<string>;
  unit: Generated<string>;
  cost: Generated<number>;
  line_item_id: number | null;
  created_at: number;
  updated_at: number;
}
export interface PartStockTable {
  part_id: number;
  location_id: number;
  fleet_id: number;
  qty: Generated<number>;
  threshold: number | null;
}
export interface PartMoveTable {
  id: Generated<number>;
  fleet_id: number;
  part_id: number;
  location_id: number;
  kind: string;
  reason: string | null;
  qty: number;
  before: number;
  after: number;
  ref_type: string | null;
  ref_id: number | null;
  note: Generated<string>;
  user_id: number | null;
  at: number;
}
export interface PurchaseOrderTable {
  id: Generated<number>;
  fleet_id: number;
  vendor: string;
  status: string;
  location_id: number | null;
  note: Generated<string>;
  created_by: number | null;
  ordered_at: number | null;
  created_at: number;
  updated_at: number;
}
export interface PurchaseOrderLineTable {
  id: Generated<number>;
  purchase_order_id: number;
  fleet_id: number;
  position: number;
  part_id: number;
  qty: number;
  cost: number;
  received: Generated<number>;
}

export interface IntervalLineItemTable extends ItemLineTable {
  interval_id: number;
}

export interface ServiceLineItemTable extends ItemLineTable, StockLineColumns {
  service_id: number;
}

export interface AssignmentTable {
  id: Generated<number>;
  fleet_id: number;
  interval_id: number;
  /** u unit, d driver, t trailer. */
  object_type: string;
  object_id: number;
  /** Baseline "last service" values (DESIGN §5 wire names). */
  lcnm: number;
  lceh: number;
  ltm: number;
  cnt: number;
  created_at: number;
}

export interface ServiceTable {
  id: Generated<number>;
  fleet_id: number;
  object_type: string;
  object_id: number;
  interval_id: number | null;
  assignment_id: number | null;
  f: number;
  name: string;
  description: string;
  creator_id: number | null;
  created_at: number;
  updated_at: number;
  start_date: number | null;
  end_date: number | null;
  planned_date: number | null;
  forecast_date: number | null;
  limit_mileage: number | null;
  limit_engine_hours: number | null;
  last_date: number | null;
  last_mileage: number | null;
  last_engine_hours: number | null;
  mileage: number | null;
  engine_hours: number | null;
  manual_cost: number | null;
  notify_days: number | null;
  cf: string;
}

export interface AttachmentTable {
  id: Generated<number>;
  fleet_id: number;
  owner_type: string;
  owner_id: number;
  name: string;
  content_type: string;
  size: number;
  data: Buffer;
  created_at: number;
  creator_id: number | null;
}

/** Fleet-defined document types (migration 040; docs/product.md "Documents"). */
export interface DocumentTypeTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  reminder_days: number;
  created_at: number;
}

/** A document of a unit, trailer or driver with a copy of its current period (migration 040). */
export interface DocumentTable {
  id: Generated<number>;
  fleet_id: number;
  owner_type: string;
  owner_id: number;
  type: string;
  type_id: number | null;
  number: Generated<string>;
  issuer: Generated<string>;
  notes: Generated<string>;
  period_id: number | null;
  valid_from: number | null;
  valid_to: number;
  /** Integer thousandths of the fleet currency. */
  cost: number | null;
  /** Start of the current period's reminder window, Unix seconds. */
  remind_at: number;
  created_at: number;
  updated_at: number;
}

/** One period of a document: the current one and the renewals before it (migration 040). */
export interface DocumentPeriodTable {
  id: Generated<number>;
  document_id: number;
  fleet_id: number;
  number: Generated<string>;
  valid_from: number | null;
  valid_to: number;
  cost: number | null;
  reminded_at: number | null;
  created_at: number;
}

export interface MapKeyTable {
  id: Generated<number>;
  provider: string;
  key: string;
  type: number;
  created_at: number;
}

/** A custom field definition (spec §3 "Custom field"); migration 007. */
export interface CustomFieldTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  /** 1 text, 2 list. */
  type: number;
  /** JSON list of the options of a list field. */
  options: string;
  /** u unit, d driver, t trailer, s service, f fuel filling. */
  owner_type: string;
  created_at: number;
  updated_at: number;
}

/** Daily counter history of a unit (migration 008; modules/statistics). */
export interface CounterDayTable {
  unit_id: number;
  /** Start of the fleet-local calendar day, Unix seconds (DESIGN §2). */
  day: number;
  /** Counters at the day's first and last record less the unit's corrections (km, hours); migration 008. */
  first_mileage: number;
  last_mileage: number;
  first_engine_hours: number;
  last_engine_hours: number;
}

/**
 * What closed services and fuel fillings add up to per fleet, fleet-local day and object (`u`/`d`/`t`
 * and its id, or `*` and 0 for the whole fleet); integer thousandths and counts (migration 012;
 * modules/statistics/cost-days.ts).
 */
export interface CostDayTable {
  fleet_id: number;
  /** Start of the fleet-local calendar day, Unix seconds (a service's `end_date`). */
  day: number;
  object_type: string;
  object_id: number;
  services_cost: number;
  services_count: number;
  fuel_cost: number;
  fuel_count: number;
  /** Fuel volume written in litres, integer thousandths. */
  fuel_l: number;
  /** Fuel volume written in US gallons, integer thousandths. */
  fuel_gal: number;
}

/** Counts the writes that change a fleet's statistics (migration 012), for the statistics cache. */
export interface StatisticsVersionTable {
  fleet_id: number;
  version: number;
}

/** Per-fleet revision of what a collection's replies show (migration 020; http/etag.ts). */
export interface CollectionRevisionTable {
  fleet_id: number;
  collection: string;
  rev: number;
}

/** The domain-event outbox (migration 009; events/outbox.ts). */
export interface DomainEventTable {
  id: Generated<number>;
  /** The event's stable unique id (a UUID), also in the payload. */
  event_id: string;
  /** PostgreSQL: publication order, null until the publisher numbers the committed row. SQLite: unused (the id is the order). */
  seq: number | null;
  type: string;
  fleet_id: number;
  /** When it happened (the event's `at`). */
  at: number;
  /** When it was recorded; retention counts from here. */
  created_at: number;
  published_at: number | null;
  /** The whole event as JSON. */
  payload: string;
}

/** A domain-event consumer's cursor (migration 009). */
export interface EventConsumerTable {
  name: string;
  last_seq: number;
  updated_at: number;
}

/** The reminder day announced per service (migration 009; engine/reminders.ts). */
export interface ServiceReminderTable {
  service_id: number;
  day: number;
}

/** A fuel filling (migration 011; modules/fuel). Volume, price and costs in integer thousandths. */
export interface FuelFillingTable {
  id: Generated<number>;
  fleet_id: number;
  unit_id: number;
  filled_at: number;
  fuel_type: string;
  /** Thousandths of `volume_unit` (1 litres, 2 US gallons: the fleet's `fm` when written). */
  volume: number;
  volume_unit: number;
  /** Thousandths of money per `volume_unit`. */
  price: number | null;
  /** The total entered by hand, thousandths of money. */
  manual_cost: number | null;
  /** `manual_cost`, else volume × price, thousandths of money. */
  total_cost: number;
  /** km. */
  mileage: number | null;
  full_tank: number;
  station: string;
  description: string;
  cf: string;
  creator_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A fleet's in-app notification set-up (migration 013; modules/notifications). */
export interface NotificationSetupTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  enabled: number;
  /** Notification kinds, bit mask 1..31 (DESIGN §6). */
  kinds: number;
  /** JSON list of the user ids it addresses; empty: every member. */
  users: string;
  created_at: number;
  updated_at: number;
}

/** An in-app notification of one user (migration 013; spec §3 "Notification"). */
export interface NotificationTable {
  id: Generated<number>;
  fleet_id: number;
  user_id: number;
  /** The domain event's UUID; unique per user. */
  event_id: string;
  setup_id: number | null;
  kind: number;
  service_id: number | null;
  object_type: string | null;
  object_id: number | null;
  interval_id: number | null;
  /** JSON: `{f, n, o}` service flags, service name, object name. */
  data: string;
  tm: number;
  /** Read time; null while unread. */
  stm: number | null;
  created_at: number;
}

/** A fleet's e-mail, bot or webhook set-up (migration 014; modules/notification-channels). */
export interface ChannelSetupTable {
  id: Generated<number>;
  fleet_id: number;
  /** 'mail' | 'bot' | 'webhook'. */
  channel: string;
  name: string;
  enabled: number;
  /** Notification kinds, bit mask 1..31 (DESIGN §6). */
  kinds: number;
  /** Language of the texts; null for webhooks. */
  lang: string | null;
  /** JSON: mail `{recipients}`, bot `{url, chats}`, webhook `{url}`. */
  config: string;
  /** Bot token or webhook signing secret; null when none. */
  secret: string | null;
  created_at: number;
  updated_at: number;
}

/** One event's delivery to one channel set-up and recipient (migrations 014, 019); unique per (channel, setup_id, event_id, recipient). */
export interface NotificationDeliveryTable {
  id: Generated<number>;
  fleet_id: number;
  channel: string;
  setup_id: number;
  setup_name: string;
  event_id: string;
  kind: number;
  service_id: number | null;
  /** JSON: core `ChannelEventSnapshot`. */
  snapshot: string;
  /** 'pending' | 'sent' | 'failed'. */
  status: string;
  attempts: number;
  /** When a pending delivery is (re)tried; a claim pushes it by the lease. */
  next_at: number | null;
  last_at: number | null;
  error: string | null;
  created_at: number;
  /** The one e-mail address or chat id (migration 019); '' for webhooks and rows from before it. */
  recipient: string;
  /** 1 for a logged "send test" (migration 019). */
  test: number;
}

/** A failed login (migration 015; auth/rate-limit.ts): lower-case name, address, Unix milliseconds. */
export interface LoginFailureTable {
  id: Generated<number>;
  name: string;
  address: string;
  at_ms: number;
  /** 1 while the try's password is checked (migration 023, auth/rate-limit.ts). */
  pending: Generated<number>;
}

/** A fault report of the web app (migration 015; modules/client-errors). */
export interface ClientFaultTable {
  id: Generated<number>;
  kind: string;
  release: string;
  message: string;
  stack: string | null;
  url: string | null;
  user_agent: string;
  user_name: string | null;
  tm: number;
}

/** Vehicle assignments (036, modules/assignments): a driver (user) drives a unit from start to end. */
export interface VehicleAssignmentTable {
  id: Generated<number>;
  fleet_id: number;
  unit_id: number;
  user_id: number;
  start_at: number;
  /** Null while the assignment is open. */
  end_at: number | null;
  /** Meters at both ends: km and engine hours, as the units table keeps them. */
  start_mileage: number;
  start_engine_hours: number;
  end_mileage: number | null;
  end_engine_hours: number | null;
  created_at: number;
  created_by: number | null;
}
export type VehicleAssignmentRow = Selectable<VehicleAssignmentTable>;

export interface Database {
  accounts: AccountTable;
  users: UserTable;
  fleets: FleetTable;
  fleet_users: FleetUserTable;
  unit_types: UnitTypeTable;
  units: UnitTable;
  drivers: PersonTable;
  trailers: PersonTable;
  access_tokens: AccessTokenTable;
  sessions: SessionTable;
  positions: PositionTable;
  ingest_log: IngestLogTable;
  counter_corrections: CounterCorrectionTable;
  meter_readings: MeterReadingTable;
  counter_days: CounterDayTable;
  line_items: LineItemTable;
  intervals: IntervalTable;
  interval_line_items: IntervalLineItemTable;
  assignments: AssignmentTable;
  services: ServiceTable;
  service_line_items: ServiceLineItemTable;
  attachments: AttachmentTable;
  document_types: DocumentTypeTable;
  documents: DocumentTable;
  document_periods: DocumentPeriodTable;
  map_keys: MapKeyTable;
  custom_fields: CustomFieldTable;
  domain_events: DomainEventTable;
  event_consumers: EventConsumerTable;
  service_reminders: ServiceReminderTable;
  fuel_fillings: FuelFillingTable;
  cost_days: CostDayTable;
  statistics_versions: StatisticsVersionTable;
  collection_revisions: CollectionRevisionTable;
  notification_setups: NotificationSetupTable;
  notifications: NotificationTable;
  channel_setups: ChannelSetupTable;
  notification_deliveries: NotificationDeliveryTable;
  login_failures: LoginFailureTable;
  client_faults: ClientFaultTable;
  fault_codes: FaultCodeTable;
  vehicle_assignments: VehicleAssignmentTable;
  inspection_forms: InspectionFormTable;
  inspections: InspectionTable;
  inspection_defects: InspectionDefectTable;
  issues: IssueTable;
  work_orders: WorkOrderTable;
  components: ComponentTable;
  component_mounts: ComponentMountTable;
  component_treads: ComponentTreadTable;
  component_kinds: ComponentKindTable;
  component_settings: ComponentSettingsTable;
  work_order_services: WorkOrderServiceTable;
  work_order_line_items: WorkOrderLineItemTable;
  stock_locations: StockLocationTable;
  parts: PartTable;
  part_stock: PartStockTable;
  part_moves: PartMoveTable;
  purchase_orders: PurchaseOrderTable;
  purchase_order_lines: PurchaseOrderLineTable;
}

export type AccountRow = Selectable<AccountTable>;
export type UserRow = Selectable<UserTable>;
export type FleetRow = Selectable<FleetTable>;
export type PartRow = Selectable<PartTable>;
export type PurchaseOrderRow = Selectable<PurchaseOrderTable>;
export type UnitRow = Selectable<UnitTable>;
export type NewUnit = Insertable<UnitTable>;
export type UnitUpdate = Updateable<UnitTable>;
export type PersonRow = Selectable<PersonTable>;
export type AccessTokenRow = Selectable<AccessTokenTable>;
export type SessionRow = Selectable<SessionTable>;
export type IntervalRow = Selectable<IntervalTable>;
export type AssignmentRow = Selectable<AssignmentTable>;
export type ServiceRow = Selectable<ServiceTable>;
export type LineItemRow = Selectable<LineItemTable>;
export type CustomFieldRow = Selectable<CustomFieldTable>;
export type FuelFillingRow = Selectable<FuelFillingTable>;

/** An inspection form (migration 035): items as JSON (core `InspectionItem[]`). */
export interface InspectionFormTable {
  id: Generated<number>;
  fleet_id: number;
  name: string;
  /** 'dvir' for the built-in form; null for the fleet's own. */
  builtin: string | null;
  items: string;
  created_at: number;
  updated_at: number;
}

/** A submitted inspection (migration 035): its copy of the items and the results as JSON. */
export interface InspectionTable {
  id: Generated<number>;
  fleet_id: number;
  form_id: number | null;
  form_name: string;
  builtin: string | null;
  object_type: string;
  object_id: number;
  mileage: number | null;
  engine_hours: number | null;
  note: string;
  items: string;
  results: string;
  signature_id: number | null;
  submitted_at: number;
  submitter_id: number | null;
  defects: number;
  ack_by: number | null;
  ack_at: number | null;
}

/** A defect of an inspection (migration 035): a failed item, its issue and its certification. */
export interface InspectionDefectTable {
  id: Generated<number>;
  fleet_id: number;
  inspection_id: number;
  item: number;
  severity: string;
  issue_id: number | null;
  cert: string | null;
  cert_note: string;
  cert_by: number | null;
  cert_at: number | null;
  cert_signature_id: number | null;
}

export type InspectionFormRow = Selectable<InspectionFormTable>;
export type InspectionRow = Selectable<InspectionTable>;
export type InspectionDefectRow = Selectable<InspectionDefectTable>;
export type IssueRow = Selectable<IssueTable>;
export type DocumentRow = Selectable<DocumentTable>;
export type WorkOrderRow = Selectable<WorkOrderTable>;
export type ComponentRow = Selectable<ComponentTable>;
export type ComponentMountRow = Selectable<ComponentMountTable>;
