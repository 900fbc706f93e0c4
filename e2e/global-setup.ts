import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { freePort, SERVER_MAIN, type ServerInfo, startServer, stopServer, WEB_INDEX } from './server.ts';

/**
 * Starts one built server per Playwright worker, each on a free port with a fresh data directory (its
 * own SQLite file); builds nothing. The workers find theirs through `serverInfo()`.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  for (const file of [SERVER_MAIN, WEB_INDEX]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` at the root first`);
  }
  const servers: ServerInfo[] = [];
  for (let slot = 0; slot < Math.max(1, config.workers); slot++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fleetkeep-e2e-w${slot}-`));
    let port = await freePort();
    while (servers.some((other) => other.port === port)) port = await freePort();
    servers.push({ port, dataDir, pidFile: path.join(dataDir, 'server.pid') });
  }
  process.env.FLEETKEEP_E2E_SERVERS = JSON.stringify(servers);
  const stopAll = async () => {
    await Promise.all(servers.map((info) => stopServer(info)));
    for (const info of servers) fs.rmSync(info.dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(servers.map((info) => startServer(info)));
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
