import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built server's entry (`npm run build:ts`), for tests that run it as a process of its own. */
export const BUILT_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
