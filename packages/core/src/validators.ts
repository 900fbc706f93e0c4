import { Limits } from './constants.js';

/** Generic checks of spec §5. Each returns true when the value passes. */

export interface IntegerOptions {
  /** Allow the unsigned range (up to 4294967295) instead of the signed one. */
  unsigned?: boolean;
  /** Forbid negative numbers. */
  nonNegative?: boolean;
  min?: number;
  max?: number;
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/** An optional sign then digits, no decimal point; within the signed or unsigned 32-bit range. */
export function isInteger(value: unknown, options: IntegerOptions = {}): boolean {
  let n: number;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return false;
    n = value;
  } else if (typeof value === 'string') {
    if (!INTEGER_TEXT.test(value)) return false;
    n = Number(value);
  } else {
    return false;
  }
  const limit = options.unsigned ? Limits.intUnsigned : Limits.intSigned;
  if (Math.abs(n) > limit) return false;
  if ((options.nonNegative || options.unsigned) && n < 0) return false;
  if (options.min !== undefined && n < options.min) return false;
  if (options.max !== undefined && n > options.max) return false;
  return true;
}

export interface FloatOptions {
  min?: number;
  max?: number;
}

/** Numeric, finite, absolute value at most 1e21, within an optional min/max. */
export function isFloat(value: unknown, options: FloatOptions = {}): boolean {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '') n = Number(value);
  else return false;
  if (!Number.isFinite(n) || Math.abs(n) > Limits.floatMax) return false;
  if (options.min !== undefined && n < options.min) return false;
  if (options.max !== undefined && n > options.max) return false;
  return true;
}

export interface StringOptions {
  allowEmpty?: boolean;
  max?: number;
}

/** A string of at most 128 characters (or `max`), non-empty unless empties are allowed. */
export function isValidString(value: unknown, options: StringOptions = {}): boolean {
  if (typeof value !== 'string') return false;
  if (!options.allowEmpty && value.length === 0) return false;
  // Count code points so that one emoji is one character, as a person counts.
  return [...value].length <= (options.max ?? Limits.stringMax);
}

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

function isPublicIpv4(host: string): boolean | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const o = parts.map(Number) as [number, number, number, number];
  if (o.some((x) => x > 255)) return false;
  const [a, b] = o;
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  return true;
}

function isDomain(host: string): boolean {
  const labels = host.split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1] ?? '';
  if (!/^[a-z]{2,63}$/i.test(tld) && !/^xn--[a-z0-9-]+$/i.test(tld)) return false;
  return labels.every((l) => DOMAIN_LABEL.test(l));
}

const URL_SHAPE =
  /^(https?):\/\/(?:([^\s:@/]+)(?::([^\s@/]*))?@)?([^\s:/?#]+)(?::(\d{1,5}))?([/?#][^\s]*)?$/i;

/**
 * http or https; an optional user:pass prefix; the host is a domain or a public IPv4 address;
 * a port and a path are allowed (spec §5).
 */
export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = URL_SHAPE.exec(value);
  if (!m) return false;
  const host = m[4] ?? '';
  const port = m[5];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  const ip = isPublicIpv4(host);
  if (ip !== undefined) return ip;
  return isDomain(host);
}

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Local part with the allowed special characters, an @, then a domain with a dot and a suffix. */
export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 254 && EMAIL.test(value);
}

/**
 * The check of rejectServices (spec §5): an array of numeric ids. Returns the error text of the
 * spec, or undefined when the value passes.
 */
export function numberArrayError(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'items should be array';
  if (!value.every((v) => typeof v === 'number' && Number.isFinite(v)))
    return 'items should be array [number...]';
  return undefined;
}
