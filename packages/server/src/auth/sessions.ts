import { type LiveEvent, UserEventType } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Ending a user's sessions and tokens (a password change, a deactivation or a suspension ends
 * the user's other sessions and API tokens). Split in two so that a writer ends them inside its own
 * transaction and announces it after the commit.
 */

export interface EndedSessions {
  /** `[userId, sessionId]` of every session deleted. */
  sessions: [number, number][];
}

/**
 * Deletes the sessions, login tokens and personal API tokens of `userIds` inside `trx`, except the
 * session `keep` (and the login token behind it): the caller's own session survives its password change.
 */
export async function endUserSessions(
  trx: Kysely<Database>,
  userIds: number[],
  keep: number | null = null,
): Promise<EndedSessions> {
  if (userIds.length === 0) return { sessions: [] };
  let sessions = trx
    .selectFrom('sessions')
    .select(['id', 'user_id', 'access_token_id'])
    .where('user_id', 'in', userIds);
  if (keep !== null) sessions = sessions.where('id', '!=', keep);
  const ended = await sessions.execute();
  const kept =
    keep === null
      ? undefined
      : await trx.selectFrom('sessions').select('access_token_id').where('id', '=', keep).executeTakeFirst();
  if (ended.length > 0)
    await trx
      .deleteFrom('sessions')
      .where(
        'id',
        'in',
        ended.map((s) => s.id),
      )
      .execute();
  let tokens = trx.deleteFrom('access_tokens').where('user_id', 'in', userIds);
  if (kept?.access_token_id != null) tokens = tokens.where('id', '!=', kept.access_token_id);
  await tokens.execute();
  return { sessions: ended.map((s) => [s.user_id, s.id]) };
}

/**
 * The live events that close the sockets of every ended session on every instance (spec §4 user event
 * 32, forced logout), published after the commit (events/unit-of-work.ts).
 */
export function endedSessionEvents(ended: EndedSessions): LiveEvent[] {
  return ended.sessions.map(([uid, sid]) => ({
    t: 'e' as const,
    s: 'user' as const,
    fid: null,
    uid,
    d: { type: UserEventType.logout, sid },
  }));
}
