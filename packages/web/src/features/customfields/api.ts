import { useCustomFieldList } from '../../lib/fleetData.ts';
import type { CustomField } from './rules.ts';

/**
 * The fleet's custom field definitions (spec §7 `GET /fleets/{fid}/custom-fields`, reply field
 * `custom_fields`), keyed under the `customfield` collection so live events refresh them.
 */
export const useCustomFields = (fid: number | null) => useCustomFieldList<CustomField>(fid);
