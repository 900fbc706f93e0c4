import type { AppContext } from '../context.js';

/** Placeholder until the telematics module lands. */
export async function startOsmandServer(
  _ctx: AppContext,
  port: number,
  _host: string,
): Promise<{ port: number; close(): Promise<void> }> {
  return { port, close: async () => {} };
}
