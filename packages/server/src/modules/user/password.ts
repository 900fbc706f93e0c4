import type { Actor } from '../../auth/actor.js';
import { hashPassword, verifyPassword } from '../../auth/secrets.js';
import { endedSessionEvents, endUserSessions } from '../../auth/sessions.js';
import type { AppContext } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, invalidInput } from '../../http/errors.js';

/** Detail of a wrong current password, on the form's field (core `userPasswordBody`). */
export const WRONG_PASSWORD = 'Wrong password';

/**
 * PUT /api/user/password: the user changes their own password, the current one
 * required. Wrong current passwords count like failed logins (auth/rate-limit.ts, same name and address),
 * so the route cannot be used to guess faster than the login. The other sessions, login tokens and API
 * tokens of the user end (their sockets get user event 32, spec §4); the calling session stays.
 */
export async function changeOwnPassword(
  ctx: AppContext,
  actor: Actor,
  oldPassword: string,
  newPassword: string,
  address: string,
): Promise<void> {
  // A token is a narrower credential than the password: it may not replace it.
  if (actor.apiTokenId !== null || actor.sessionId === null) throw accessDenied();
  const user = await ctx.db.kysely
    .selectFrom('users')
    .select(['id', 'name', 'password_hash'])
    .where('id', '=', actor.userId)
    .executeTakeFirst();
  if (!user) throw accessDenied();
  const attempt = await ctx.limiter.begin(ctx.db, user.name, address);
  const valid = await verifyPassword(user.password_hash, oldPassword).catch(async (err: unknown) => {
    await attempt.drop();
    throw err;
  });
  if (!valid) {
    await attempt.fail();
    throw invalidInput([{ field: 'body.old', message: WRONG_PASSWORD }], WRONG_PASSWORD);
  }
  await attempt.succeed();
  const hash = await hashPassword(newPassword);
  await unitOfWork(ctx, async (trx, uow) => {
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    uow.emit(...endedSessionEvents(await endUserSessions(trx, [user.id], actor.sessionId)));
  });
}
