import path from 'node:path';
import { type OutboundPolicy, parseOutboundAllow } from './outbound/policy.js';

/** Runtime configuration (DESIGN §8). Read once at start; tests build their own. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  demo: boolean;
  demoPassword: string | undefined;
  osmandPort: number;
  /** Teltonika TCP port (`TELTONIKA_PORT`, Codec 8 / 8 Extended); 0 disables it. */
  teltonikaPort: number;
  smtpUrl: string | undefined;
  /** From address of notification mails (`SMTP_FROM`); default `Fleetkeep <fleetkeep@host of PUBLIC_URL>`. */
  smtpFrom: string | undefined;
  publicUrl: string;
  gisUrl: string | undefined;
  /** Documentation link of the user menu. */
  docsUrl: string | undefined;
  /** Directory of the built SPA; served when it exists. */
  webDir: string | undefined;
  /** Largest accepted request body in bytes (attachments aside). */
  bodyLimit: number;
  /** Interval of the demo simulator in milliseconds. */
  simulatorIntervalMs: number;
  logLevel: string;
  /** Trust X-Forwarded-For from a reverse proxy (client addresses for login rate limiting). */
  trustProxy: boolean;
  /** Maintenance banner text per language (`FLEETKEEP_NOTICE`); null when unset. */
  notice: Record<string, string> | null;
  /** Shutdown notice of old tracking systems: from/to as Unix seconds (`FLEETKEEP_SHUTDOWN_FROM`/`_TO`). */
  shutdown: { sdf: number; sdt: number | null } | null;
  /** Forum link of the user menu (`FORUM_URL`). */
  forumUrl: string | undefined;
  /** Check every reply against its declared contract (`FLEETKEEP_CHECK_REPLIES`; on in the tests). */
  checkReplies: boolean;
  /** Where webhooks and bot APIs may be reached (`FLEETKEEP_OUTBOUND_ALLOW`, default `external`; outbound/policy.ts). */
  outboundAllow: OutboundPolicy;
  /**
   * Bearer token a Traccar server's forwarding must send to `/api/ingest/traccar`
   * (`TRACCAR_FORWARD_TOKEN`; Traccar's `forward.header`); unset: none is asked.
   */
  traccarForwardToken: string | undefined;
  /**
   * Test only: the Teltonika port waits this long after a packet's commit before its acknowledgement
   * (`FLEETKEEP_TEST_ACK_DELAY_MS`, read only when `NODE_ENV` is `test`), so that a test can kill the
   * process between the two (telematics/teltonika/kill9.http.test.ts). 0 otherwise.
   */
  testAckDelayMs: number;
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** `FLEETKEEP_NOTICE`: plain text for every language, or a JSON object language → text. */
export function parseNotice(raw: string | undefined): Record<string, string> | null {
  if (raw === undefined || raw.trim() === '') return null;
  const text = raw.trim();
  if (!text.startsWith('{')) return { en: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('FLEETKEEP_NOTICE looks like JSON but does not parse');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('FLEETKEEP_NOTICE must be plain text or a JSON object of language to text');
  const out: Record<string, string> = {};
  for (const [lang, value] of Object.entries(parsed)) {
    if (typeof value !== 'string' || value.trim() === '')
      throw new Error(`FLEETKEEP_NOTICE: the text for "${lang}" must be a non-empty string`);
    out[lang] = value;
  }
  if (Object.keys(out).length === 0) throw new Error('FLEETKEEP_NOTICE: the JSON object is empty');
  return out;
}

/** A YYYY-MM-DD date (UTC midnight) as Unix seconds. */
function dateEnv(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw)
    throw new Error(`${name} must be a date YYYY-MM-DD, got "${raw}"`);
  return ms / 1000;
}

export function parseShutdown(env: NodeJS.ProcessEnv): { sdf: number; sdt: number | null } | null {
  const sdf = dateEnv(env, 'FLEETKEEP_SHUTDOWN_FROM');
  const sdt = dateEnv(env, 'FLEETKEEP_SHUTDOWN_TO');
  if (sdf === null) {
    if (sdt !== null) throw new Error('FLEETKEEP_SHUTDOWN_TO needs FLEETKEEP_SHUTDOWN_FROM');
    return null;
  }
  if (sdt !== null && sdt <= sdf)
    throw new Error('FLEETKEEP_SHUTDOWN_TO must be later than FLEETKEEP_SHUTDOWN_FROM');
  return { sdf, sdt };
}

/** `1` or `true` turns a switch on; anything else leaves it off. */
function boolEnv(env: NodeJS.ProcessEnv, name: string): boolean {
  return env[name] === '1' || env[name] === 'true';
}

function urlEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intEnv(env, 'PORT', 8080);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    demo: boolEnv(env, 'FLEETKEEP_DEMO'),
    demoPassword: env.FLEETKEEP_DEMO_PASSWORD || undefined,
    osmandPort: intEnv(env, 'OSMAND_PORT', 5055),
    teltonikaPort: intEnv(env, 'TELTONIKA_PORT', 5027),
    smtpUrl: env.SMTP_URL || undefined,
    smtpFrom: env.SMTP_FROM || undefined,
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    gisUrl: env.GIS_URL || undefined,
    docsUrl: env.DOCS_URL || undefined,
    webDir: env.FLEETKEEP_WEB_DIR || undefined,
    bodyLimit: intEnv(env, 'FLEETKEEP_BODY_LIMIT', 1024 * 1024),
    simulatorIntervalMs: intEnv(env, 'FLEETKEEP_SIMULATOR_MS', 5000),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: boolEnv(env, 'TRUST_PROXY'),
    notice: parseNotice(env.FLEETKEEP_NOTICE),
    shutdown: parseShutdown(env),
    forumUrl: urlEnv(env, 'FORUM_URL'),
    checkReplies: boolEnv(env, 'FLEETKEEP_CHECK_REPLIES'),
    outboundAllow: parseOutboundAllow(env.FLEETKEEP_OUTBOUND_ALLOW),
    traccarForwardToken: env.TRACCAR_FORWARD_TOKEN?.trim() || undefined,
    testAckDelayMs: env.NODE_ENV === 'test' ? intEnv(env, 'FLEETKEEP_TEST_ACK_DELAY_MS', 0) : 0,
  };
}
