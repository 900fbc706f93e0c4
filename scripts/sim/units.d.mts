// Types of units.mjs for the TypeScript tests that import it.
export function signIn(
  baseUrl: string,
  username: string,
  password: string,
): Promise<{ authorization: string; fid: number | null }>;
export function ensureUnits(options: {
  baseUrl: string;
  user: string;
  password: string;
  fleet?: number;
  ids: string[];
  concurrency?: number;
  onProgress?(created: number, of: number): void;
}): Promise<{ fleet: number; created: number; existing: number }>;
