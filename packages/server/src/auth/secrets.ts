import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { LRUCache } from 'lru-cache';

/** A new random token for the wire: 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens and session ids are stored only as their SHA-256 (DESIGN §4). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** At most this many presented credentials keep their hash (`presentedHash`); past that the least recently presented goes. */
export const PRESENTED_HASHES = 1_000;
/** Longer strings are no credential of ours (43 characters, `newToken`) and are hashed without memory. */
const PRESENTED_MAX_LENGTH = 128;
const presented = new LRUCache<string, string>({ max: PRESENTED_HASHES });

/**
 * `tokenHash` of a credential presented with a request (the session id of every call, an API token):
 * the same few are presented again and again, and hashing was about 1 % of a small read. The
 * hash of a string never changes, so a remembered one is never stale; the map only saves the work.
 */
export function presentedHash(token: string): string {
  const hit = presented.get(token);
  if (hit !== undefined) return hit;
  const hash = tokenHash(token);
  if (token.length > PRESENTED_MAX_LENGTH) return hash;
  presented.set(token, hash);
  return hash;
}

/** argon2id with the library's defaults (19 MiB, 2 passes), the OWASP baseline. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
