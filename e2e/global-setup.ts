import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, SERVER_MAIN, type ServerInfo, startServer, stopServer, WEB_INDEX } from './server.ts';

/** Starts the built server on a free port with a fresh data directory; builds nothing. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const file of [SERVER_MAIN, WEB_INDEX]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` at the root first`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-e2e-'));
  const info: ServerInfo = { port: await freePort(), dataDir, pidFile: path.join(dataDir, 'server.pid') };
  process.env.FLEETKEEP_E2E_SERVER = JSON.stringify(info);
  await startServer(info);
  return async () => {
    await stopServer(info);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
