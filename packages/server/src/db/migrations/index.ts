import type { Migration, MigrationProvider } from 'kysely';
import type { DialectName } from '../database.js';
import { core001 } from './001_core.js';
import { eventPayloads002 } from './002_event_payloads.js';
import { maintenance003 } from './003_maintenance.js';
import { mapKeys005 } from './005_map_keys.js';
import { servicesOpenIndex006 } from './006_services_open_index.js';
import { customFields007 } from './007_custom_fields.js';
import { counterDays008 } from './008_counter_days.js';
import { domainEvents009 } from './009_domain_events.js';
import { userActive010 } from './010_user_active.js';
import { fuelFillings011 } from './011_fuel_fillings.js';
import { costDays012 } from './012_cost_days.js';
import { notifications013 } from './013_notifications.js';
import { notificationChannels014 } from './014_notification_channels.js';
import { loginAttempts015 } from './015_login_attempts.js';
import { meterReadings016 } from './016_meter_readings.js';
import { reportMails017 } from './017_report_mails.js';
import { statisticsFleetDays018 } from './018_statistics_fleet_days.js';
import { deliveryRecipients019 } from './019_delivery_recipients.js';
import { collectionRevisions020 } from './020_collection_revisions.js';
import { costRunningTotals021 } from './021_cost_running_totals.js';
import { authRevision022 } from './022_auth_revision.js';
import { loginTriesMeterShifts023 } from './023_login_tries_meter_shifts.js';
import { unitsRevision026 } from './026_units_revision.js';
import { meterShiftPending027 } from './027_meter_shift_pending.js';
import { fleetMemberSince028 } from './028_fleet_member_since.js';
import { unitTypeTeltonikaIo029 } from './029_unit_type_teltonika_io.js';
import { faultCodes030 } from './030_fault_codes.js';
import { vehicleProfile031 } from './031_vehicle_profile.js';
import { meterIntegrity032 } from './032_meter_integrity.js';
import { workshopRights033 } from './033_workshop_rights.js';
import { issues034 } from './034_issues.js';
import { inspections035 } from './035_inspections.js';
import { vehicleAssignments036 } from './036_vehicle_assignments.js';
import { workOrders037 } from './037_work_orders.js';
import { storeRights038 } from './038_store_rights.js';
import { parts039 } from './039_parts.js';
import { documents040 } from './040_documents.js';
import { components041 } from './041_components.js';

/** Forward-only migrations, in order. Each receives the dialect for the few types that differ. */
export function migrations(dialect: DialectName): MigrationProvider {
  const list: Record<string, Migration> = {
    '001_core': core001(dialect),
    '002_event_payloads': eventPayloads002(dialect),
    '003_maintenance': maintenance003(dialect),
    '005_map_keys': mapKeys005(dialect),
    '006_services_open_index': servicesOpenIndex006(),
    '007_custom_fields': customFields007(dialect),
    '008_counter_days': counterDays008(dialect),
    '009_domain_events': domainEvents009(dialect),
    '010_user_active': userActive010(),
    '011_fuel_fillings': fuelFillings011(dialect),
    '012_cost_days': costDays012(dialect),
    '013_notifications': notifications013(dialect),
    '014_notification_channels': notificationChannels014(dialect),
    '015_login_attempts': loginAttempts015(dialect),
    '016_meter_readings': meterReadings016(dialect),
    '017_report_mails': reportMails017(dialect),
    '018_statistics_fleet_days': statisticsFleetDays018(dialect),
    '019_delivery_recipients': deliveryRecipients019(),
    '020_collection_revisions': collectionRevisions020(dialect),
    '021_cost_running_totals': costRunningTotals021(),
    '022_auth_revision': authRevision022(dialect),
    '023_login_tries_meter_shifts': loginTriesMeterShifts023(),
    '026_units_revision': unitsRevision026(dialect),
    '027_meter_shift_pending': meterShiftPending027(),
    '028_fleet_member_since': fleetMemberSince028(),
    '029_unit_type_teltonika_io': unitTypeTeltonikaIo029(),
    '030_fault_codes': faultCodes030(dialect),
    '031_vehicle_profile': vehicleProfile031(),
    '032_meter_integrity': meterIntegrity032(),
    '033_workshop_rights': workshopRights033(),
    '034_issues': issues034(dialect),
    '035_inspections': inspections035(dialect),
    '036_vehicle_assignments': vehicleAssignments036(dialect),
    '037_work_orders': workOrders037(dialect),
    '038_store_rights': storeRights038(),
    '039_parts': parts039(dialect),
    '040_documents': documents040(dialect),
    '041_components': components041(dialect),
  };
  return { getMigrations: async () => list };
}
