import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config.js';
import { isEmpty, seedDemoIfEmpty } from './demo/seed.js';
import { startSimulator } from './demo/simulator.js';
import { startEngine } from './engine/index.js';
import { startRetention } from './jobs/retention.js';
import { createServer } from './server.js';
import { startOsmandServer } from './telematics/osmand-server.js';
import { startTeltonikaServer } from './telematics/teltonika/server.js';

/**
 * The demo password: FLEETKEEP_DEMO_PASSWORD, else one made at the first seed and kept in DATA_DIR so
 * that later starts can print it again.
 */
function demoPassword(dataDir: string, configured: string | undefined, create: boolean): string | undefined {
  if (configured) return configured;
  const file = path.join(dataDir, 'demo-password.txt');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  if (!create) return undefined;
  const password = randomBytes(9).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  if (!config.webDir) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    config.webDir = path.resolve(here, '../../web/dist');
  }
  const server = await createServer(config);
  const { app, ctx } = server;

  let password: string | undefined;
  if (config.demo) {
    const empty = await isEmpty(ctx);
    password = demoPassword(config.dataDir, config.demoPassword, empty);
    if (empty && password && (await seedDemoIfEmpty(ctx, password))) app.log.info('demo fleet seeded');
  }

  await app.listen({ port: config.port, host: config.host });
  const osmand =
    config.osmandPort > 0 ? await startOsmandServer(ctx, config.osmandPort, config.host) : undefined;
  const teltonika =
    config.teltonikaPort > 0
      ? await startTeltonikaServer(ctx, config.teltonikaPort, config.host, {
          ackDelayMs: config.testAckDelayMs,
        })
      : undefined;
  const simulator = config.demo ? startSimulator(ctx, config.simulatorIntervalMs) : undefined;
  const retention = startRetention(ctx);
  const engine = startEngine(ctx);
  // Domain events: publishes what a killed process left unpublished, then catches consumers up.
  const outbox = ctx.outbox.start();

  const ms = Math.round(performance.now() - started);
  const lines = [
    '',
    `  Fleetkeep is running at ${config.publicUrl}  (started in ${ms} ms)`,
    `  Database: ${ctx.db.label}`,
    osmand ? `  Telematics (OsmAnd protocol): port ${osmand.port}` : '  Telematics port disabled',
    teltonika ? `  Telematics (Teltonika protocol): port ${teltonika.port}` : '  Teltonika port disabled',
  ];
  if (config.demo && password) {
    lines.push(
      `  Demo users: root, admin, manager, mechanic, viewer, driver, outsider — password: ${password}`,
    );
  }
  console.log(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    simulator?.stop();
    retention.stop();
    engine.stop();
    outbox.stop();
    await osmand?.close();
    await teltonika?.close();
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error('Fleetkeep failed to start:', err);
  process.exit(1);
});
