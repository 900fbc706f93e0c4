import { TZ_DST_EUROPE, TZ_DST_SOUTH } from '@fleetkeep/core';

/**
 * The time zones a fleet can pick (spec §5 "Time zone", core timezone.ts): a UTC offset and one of the
 * two daylight-saving rules the encoding knows (European for the northern hemisphere, inverted for the
 * southern), named by their best-known cities, so that no one has to type a raw `tz` number. Pure.
 */

type Rule = 'none' | 'north' | 'south';

export interface TimeZoneChoice {
  /** The fleet `tz` code. */
  tz: number;
  /** UTC offset in minutes outside summer time. */
  offset: number;
  rule: Rule;
  cities: string;
}

/** The fleet `tz` code of an offset and rule: the offset as a 16-bit two's complement, the rule flag above. */
export function tzCode(offset: number, rule: Rule): number {
  const flag = rule === 'north' ? TZ_DST_EUROPE : rule === 'south' ? TZ_DST_SOUTH : 0;
  return ((offset & 0xffff) | flag) >>> 0;
}

const ZONES: [number, Rule, string][] = [
  [-600, 'none', 'Honolulu'],
  [-540, 'north', 'Anchorage'],
  [-480, 'north', 'Los Angeles, Vancouver, Tijuana'],
  [-420, 'none', 'Phoenix, Hermosillo'],
  [-420, 'north', 'Denver, Calgary'],
  [-360, 'none', 'Mexico City, Guatemala, San José'],
  [-360, 'north', 'Chicago, Winnipeg, Dallas'],
  [-300, 'none', 'Bogotá, Lima, Quito, Panama'],
  [-300, 'north', 'New York, Toronto, Havana'],
  [-240, 'none', 'Caracas, La Paz, Santo Domingo'],
  [-240, 'north', 'Halifax, Bermuda'],
  [-240, 'south', 'Santiago, Asunción'],
  [-180, 'none', 'São Paulo, Buenos Aires, Montevideo'],
  [-120, 'none', 'South Georgia, Fernando de Noronha'],
  [-60, 'none', 'Cape Verde'],
  [-60, 'north', 'Azores'],
  [0, 'none', 'UTC, Reykjavík, Accra, Dakar'],
  [0, 'north', 'London, Dublin, Lisbon, Canary Islands'],
  [60, 'none', 'Lagos, Algiers, Tunis'],
  [60, 'north', 'Berlin, Paris, Madrid, Rome, Warsaw, Prague, Belgrade'],
  [120, 'none', 'Cairo, Johannesburg, Kaliningrad, Tripoli'],
  [120, 'north', 'Helsinki, Kyiv, Riga, Vilnius, Tallinn, Athens, Bucharest, Sofia, Chișinău'],
  [180, 'none', 'Moscow, Istanbul, Minsk, Riyadh, Nairobi, Baghdad'],
  [210, 'none', 'Tehran'],
  [240, 'none', 'Baku, Tbilisi, Yerevan, Dubai, Samara'],
  [270, 'none', 'Kabul'],
  [300, 'none', 'Tashkent, Yekaterinburg, Karachi'],
  [330, 'none', 'New Delhi, Mumbai, Colombo'],
  [345, 'none', 'Kathmandu'],
  [360, 'none', 'Almaty, Bishkek, Dhaka, Omsk'],
  [390, 'none', 'Yangon'],
  [420, 'none', 'Bangkok, Hanoi, Jakarta, Novosibirsk, Krasnoyarsk'],
  [480, 'none', 'Beijing, Hong Kong, Singapore, Perth, Irkutsk'],
  [540, 'none', 'Tokyo, Seoul, Yakutsk'],
  [570, 'none', 'Darwin'],
  [570, 'south', 'Adelaide'],
  [600, 'none', 'Brisbane, Vladivostok, Guam'],
  [600, 'south', 'Sydney, Melbourne, Canberra, Hobart'],
  [660, 'none', 'Magadan, Nouméa, Solomon Islands'],
  [720, 'none', 'Fiji, Kamchatka'],
  [720, 'south', 'Auckland, Wellington'],
  [780, 'none', "Nuku'alofa, Apia"],
  [840, 'none', 'Kiritimati'],
];

export const TIME_ZONES: readonly TimeZoneChoice[] = ZONES.map(([offset, rule, cities]) => ({
  tz: tzCode(offset, rule),
  offset,
  rule,
  cities,
}));

/** `UTC+02:00`, `UTC−05:00` (a real minus sign). */
export function utcOffsetText(offset: number): string {
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${offset < 0 ? '\u2212' : '+'}${hh}:${mm}`;
}

/**
 * The zone of the list closest to the browser's: offsets in January and July tell the rule (larger in
 * July: northern summer time; larger in January: southern). UTC when nothing in the list matches.
 */
export function guessTimeZone(januaryOffset: number, julyOffset: number): TimeZoneChoice {
  const rule: Rule = julyOffset > januaryOffset ? 'north' : januaryOffset > julyOffset ? 'south' : 'none';
  const offset = Math.min(januaryOffset, julyOffset);
  const code = tzCode(offset, rule);
  return (
    TIME_ZONES.find((z) => z.tz === code) ??
    TIME_ZONES.find((z) => z.offset === offset) ??
    TIME_ZONES.find((z) => z.offset === 0 && z.rule === 'none')!
  );
}

/** The browser's zone, as `guessTimeZone` reads it. */
export function browserTimeZone(now = new Date()): TimeZoneChoice {
  const year = now.getFullYear();
  const jan = -new Date(year, 0, 1).getTimezoneOffset();
  const jul = -new Date(year, 6, 1).getTimezoneOffset();
  return guessTimeZone(jan, jul);
}
