// Types of devices.mjs for the TypeScript tests that import it.
import type { Centre } from './motion.mjs';

export interface SimulationStats {
  connected: number;
  acked: number;
  packets: number;
  resent: number;
  refused: number;
  errors: number;
  lastError: string | undefined;
  ackMs: number[];
}
export interface SimulationOptions {
  teltonika?: number;
  osmand?: number;
  host?: string;
  port?: number;
  teltonikaPort?: number;
  osmandPort?: number;
  traccar?: string;
  token?: string;
  intervalMs?: number;
  records?: [number, number];
  prefix?: string;
  startMs?: number;
  centre?: Centre;
  seed?: number;
  codec?: {
    encodeImei(imei: string): Buffer;
    /** The records are the codec's RecordInput (a method: the module's narrower parameter fits). */
    encodeAvlPacket(codec: 0x8e, records: unknown[]): Buffer;
  };
}
export function parseRange(text: string): [number, number];
export function deviceIds(options: { prefix?: string; teltonika?: number; osmand?: number }): {
  teltonika: string[];
  osmand: string[];
};
export function runSimulation(options: SimulationOptions): {
  ids: { teltonika: string[]; osmand: string[] };
  stats: SimulationStats;
  stop(): Promise<void>;
};
