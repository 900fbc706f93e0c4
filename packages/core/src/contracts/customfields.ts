import { z } from 'zod';
import { Limits } from '../constants.js';
import { acceptingReadOnly, id, okReply } from './common.js';

/**
 * Wire contracts of custom fields (spec §3 "Custom field", §7 "Custom fields"; PRODUCT.md
 * "Administration"): the definitions, and the values `cf: [{id, v}]` that units, drivers, trailers,
 * services and fuel fillings carry.
 */

/**
 * Owner types: the one-letter codes spec §3 gives a service's owner (u unit, d driver, t trailer),
 * extended by s service and f fuel filling.
 */
export const CUSTOM_FIELD_OWNER_TYPES = ['u', 'd', 't', 's', 'f'] as const;
export const customFieldOwnerType = z.enum(CUSTOM_FIELD_OWNER_TYPES);
export type CustomFieldOwnerType = z.infer<typeof customFieldOwnerType>;

/** Field types (spec §3 `tp`). */
export const CustomFieldType = { text: 1, list: 2 } as const;

/** Options of one list field. */
export const CUSTOM_FIELD_OPTIONS_MAX = 100;
/**
 * Length of an option as sent; after trimming an option has at most `Limits.stringMax` characters,
 * which the server checks with the other option rules and reports per option.
 */
export const CUSTOM_FIELD_OPTION_SENT_MAX = Limits.stringMax * 4;
/** Values one record carries. */
export const CUSTOM_VALUES_MAX = 200;
/** Characters of a text value (spec §9 description maximum). */
export const CUSTOM_VALUE_MAX = Limits.descriptionMax;

const settings = z.object({
  options: z
    .array(z.string().max(CUSTOM_FIELD_OPTION_SENT_MAX))
    .max(CUSTOM_FIELD_OPTIONS_MAX)
    .optional()
    .describe('Options of a list field: distinct, non-empty, at most 128 characters each'),
});

export const customFieldBody = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  tp: z.union([z.literal(CustomFieldType.text), z.literal(CustomFieldType.list)]).describe('1 text, 2 list'),
  t: customFieldOwnerType.describe('Owner type: u unit, d driver, t trailer, s service, f fuel filling'),
  s: settings.optional(),
});
export type CustomFieldBody = z.infer<typeof customFieldBody>;

/**
 * `PUT /custom-fields/{id}`: name, type or options; the owner type may be sent but not changed. The
 * field as read is accepted (`id` ignored).
 */
export const customFieldUpdateBody = acceptingReadOnly(
  customFieldBody.omit({ t: true }).partial(),
  ['id'],
  ['t'],
);
export type CustomFieldUpdateBody = z.infer<typeof customFieldUpdateBody>;

/** `DELETE /custom-fields/{id}?safe=`: 1 (default) refuses while values exist, 0 removes them too. */
export const customFieldDeleteQuery = z.object({ safe: z.enum(['0', '1']).default('1') });

/** Values as a write of a unit, driver, trailer or service sends them; `v: ''` clears a value. */
export const customFieldValue = z.object({
  id: id.describe('Custom field id'),
  v: z.string().max(CUSTOM_VALUE_MAX),
});
export type CustomFieldValue = z.infer<typeof customFieldValue>;
export const customFieldValues = z.array(customFieldValue).max(CUSTOM_VALUES_MAX);

// --- replies ---

/** Values as a record carries them on the wire. */
export const customFieldValuesWire = z
  .array(z.object({ id: z.number().int().describe('Custom field id'), v: z.string() }))
  .describe('Custom field values');

export const customFieldWire = z.object({
  id,
  n: z.string().describe('Name'),
  tp: z.number().int().describe('1 text, 2 list'),
  t: customFieldOwnerType.describe('Owner type: u unit, d driver, t trailer, s service, f fuel filling'),
  s: z
    .object({ options: z.array(z.string()).optional() })
    .describe('Settings: options, for list fields only (spec §3 "s.options for list fields")'),
});
export type CustomFieldWire = z.infer<typeof customFieldWire>;

export const customFieldListReply = z.object({
  custom_fields: z.array(customFieldWire).describe('Sorted by name, natural and case-insensitive'),
});

/** A delete: error 0 and how many values went with the field (always 0 for a safe delete). */
export const customFieldDeleteReply = okReply.extend({
  values: z.number().int().describe('Values removed with the field'),
});
