import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the server may send requests that fleet admins point it at (webhooks, bot API base URLs):
 * `FLEETKEEP_OUTBOUND_ALLOW`, comma-separated, after Gitea's `ALLOWED_HOST_LIST`. Default `external`:
 * a fleet admin must not reach the server's own host, its network or a cloud metadata service, nor
 * learn which ports answer there. Mail (`SMTP_URL`) and tiles (`GIS_URL`) are the operator's own
 * settings and outside the policy.
 *
 * - `external`: global unicast addresses;
 * - `private`: RFC 1918, CGNAT 100.64/10 and IPv6 ULA fc00::/7 (metadata addresses excepted);
 * - `loopback`: 127/8 and ::1;
 * - `*`: any address;
 * - a host name (`hooks.internal`, `*.corp.example`): that name, whatever it resolves to;
 * - an address or CIDR (`10.1.0.0/16`, `fd12::/16`).
 * Link-local, unspecified, multicast, broadcast and reserved addresses only pass by CIDR or `*`.
 */

export const OUTBOUND_ALLOW_DEFAULT = 'external';

/** What an address is, for the policy's keywords. */
export type AddressClass = 'external' | 'private' | 'loopback' | 'other';
const KEYWORDS = new Set<string>(['external', 'private', 'loopback']);

export interface OutboundPolicy {
  /** The setting as given (for messages). */
  text: string;
  any: boolean;
  classes: ReadonlySet<AddressClass>;
  cidrs: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  /** Exact names, lower case. */
  names: ReadonlySet<string>;
  /** `*.suffix` entries as `.suffix`, lower case. */
  suffixes: readonly string[];
}

/** Cloud metadata services inside ranges an operator may allow (`private`): never by keyword. */
const METADATA = ['fd00:ec2::254'].map((a) => ipaddr.parse(a).toString());

/** A name as DNS compares it: lower case, without the root's trailing dot. */
const normalName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** `[::1]` (a URL's hostname) → `::1`. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

const LABEL = '[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?';
/**
 * A host name entry: dotted (`hooks.internal`, `*.corp.example`) or `localhost`; a single word is
 * refused so that a misspelt keyword (`extrenal`) stops the start instead of naming a host.
 */
const NAME = new RegExp(`^((\\*\\.)?${LABEL}(\\.${LABEL})+|localhost)\\.?$`, 'i');

/** Parses the setting; throws a message naming the bad entry (the server does not start). */
export function parseOutboundAllow(raw: string | undefined): OutboundPolicy {
  const text = raw === undefined || raw.trim() === '' ? OUTBOUND_ALLOW_DEFAULT : raw.trim();
  const policy = {
    text,
    any: false,
    classes: new Set<AddressClass>(),
    cidrs: [] as [ipaddr.IPv4 | ipaddr.IPv6, number][],
    names: new Set<string>(),
    suffixes: [] as string[],
  };
  for (const part of text.split(',')) {
    const entry = part.trim();
    const lower = entry.toLowerCase();
    if (entry === '*') policy.any = true;
    else if (KEYWORDS.has(lower)) policy.classes.add(lower as AddressClass);
    else if (entry.includes('/') && ipaddr.isValidCIDR(entry)) policy.cidrs.push(ipaddr.parseCIDR(entry));
    else if (net.isIP(bareHost(entry))) {
      const ip = ipaddr.parse(bareHost(entry));
      policy.cidrs.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
    } else if (!entry.includes('/') && !/^[\d.]+$/.test(entry) && NAME.test(entry)) {
      if (lower.startsWith('*.')) policy.suffixes.push(normalName(lower.slice(1)));
      else policy.names.add(normalName(lower));
    } else
      throw new Error(
        `FLEETKEEP_OUTBOUND_ALLOW: "${entry}" is none of external, private, loopback, *, a host name or a CIDR (got "${text}")`,
      );
  }
  return policy;
}

/** The IPv4 address an IPv6 one carries (mapped, translated, compatible, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ip.range();
  const p = ip.parts;
  const v4 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4();
  if (range === 'rfc6052' && p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0))
    return v4();
  // IPv4-compatible ::a.b.c.d (deprecated, still routed to a.b.c.d by some stacks); :: and ::1 aside.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return v4();
  return null;
}

const V4_CLASS: Record<string, AddressClass> = {
  unicast: 'external',
  private: 'private',
  carrierGradeNat: 'private',
  loopback: 'loopback',
};
const V6_CLASS: Record<string, AddressClass> = {
  unicast: 'external',
  uniqueLocal: 'private',
  loopback: 'loopback',
};

/** The parsed address, IPv4 forms inside IPv6 unwrapped. */
function parsedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.parse(bareHost(address));
  return ip.kind() === 'ipv6' ? (embeddedIpv4(ip as ipaddr.IPv6) ?? ip) : ip;
}

/** What an IP address (any spelling `ipaddr.parse` reads) is. */
export function classifyAddress(address: string): AddressClass {
  const ip = parsedAddress(address);
  if (METADATA.includes(ip.toString())) return 'other';
  // 64:ff9b:1::/48 is local-use NAT64 (RFC 8215): its embedded address is not at a fixed place.
  if (ip.kind() === 'ipv6' && ip.range() === 'rfc6052') return 'other';
  return (ip.kind() === 'ipv4' ? V4_CLASS : V6_CLASS)[ip.range()] ?? 'other';
}

/** Whether the policy lets a connection go to this IP address. */
export function addressAllowed(policy: OutboundPolicy, address: string): boolean {
  if (policy.any) return true;
  if (policy.classes.has(classifyAddress(address))) return true;
  const ip = parsedAddress(address);
  const raw = ipaddr.parse(bareHost(address));
  return policy.cidrs.some(
    ([net, bits]) =>
      (ip.kind() === net.kind() && ip.match(net, bits)) ||
      (raw.kind() === net.kind() && raw.match(net, bits)),
  );
}

/** Whether the policy names this host name (then any address it resolves to is allowed). */
export function nameAllowed(policy: OutboundPolicy, hostname: string): boolean {
  const name = normalName(bareHost(hostname));
  return policy.names.has(name) || policy.suffixes.some((s) => name.endsWith(s));
}

/**
 * The check of a URL before anything is resolved (a set-up saved or tested): an address literal (in
 * any spelling: `new URL` normalises `2130706433`, `0x7f.1`, `[::ffff:7f00:1]` as WHATWG says) must be
 * allowed; a name passes here and is checked on its resolved addresses at connect (`lookup.ts`).
 */
export function urlAllowed(policy: OutboundPolicy, url: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return false;
  }
  if (nameAllowed(policy, hostname)) return true;
  const host = bareHost(hostname);
  return net.isIP(host) === 0 || addressAllowed(policy, host);
}
