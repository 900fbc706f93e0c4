import path from 'node:path';

/** Runtime configuration (DESIGN §8). Read once at start; tests build their own. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  demo: boolean;
  demoPassword: string | undefined;
  osmandPort: number;
  smtpUrl: string | undefined;
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
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intEnv(env, 'PORT', 8080);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    demo: env.FLEETKEEP_DEMO === '1' || env.FLEETKEEP_DEMO === 'true',
    demoPassword: env.FLEETKEEP_DEMO_PASSWORD || undefined,
    osmandPort: intEnv(env, 'OSMAND_PORT', 5055),
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    gisUrl: env.GIS_URL || undefined,
    docsUrl: env.DOCS_URL || undefined,
    webDir: env.FLEETKEEP_WEB_DIR || undefined,
    bodyLimit: intEnv(env, 'FLEETKEEP_BODY_LIMIT', 1024 * 1024),
    simulatorIntervalMs: intEnv(env, 'FLEETKEEP_SIMULATOR_MS', 5000),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
  };
}
