import { CHANNEL_SETUPS_MAX, INAPP_SETUPS_MAX, type TransferNotificationSetup } from '@fleetkeep/core';
import { conflict } from '../../http/errors.js';
import { type Doc, json, membersByName, type Run } from './run.js';

/**
 * The fleet's notification set-ups (import.ts): in-app ones (modules/notifications) and the e-mail,
 * bot and webhook ones (modules/notification-channels). A set-up of the same channel and name already
 * in the fleet is matched and left as it is. An in-app set-up's users are the members of the fleet with
 * those logins; one whose users are none of the fleet's members is skipped (it would otherwise address
 * every member). Secrets never travel (core `transferNotificationSetup`): a set-up whose source had one
 * is created switched off and listed in the reply, to have its secret entered again.
 */

export type SecretNeeded = { channel: 'bot' | 'webhook'; id: number; name: string };

export async function importSetups(run: Run, doc: Doc): Promise<SecretNeeded[]> {
  const secrets: SecretNeeded[] = [];
  if (doc.notification_setups.length === 0) return secrets;
  const { trx, fleet, t } = run;
  const fid = fleet.id;
  const inApp = await trx
    .selectFrom('notification_setups')
    .select(['name'])
    .where('fleet_id', '=', fid)
    .execute();
  const channels = await trx
    .selectFrom('channel_setups')
    .select(['channel', 'name'])
    .where('fleet_id', '=', fid)
    .execute();
  const taken = new Set([
    ...inApp.map((s) => `inapp:${s.name}`),
    ...channels.map((s) => `${s.channel}:${s.name}`),
  ]);
  const count = new Map<string, number>();
  for (const key of taken) count.set(key.split(':')[0]!, (count.get(key.split(':')[0]!) ?? 0) + 1);
  const members = await membersByName(run);

  for (const s of doc.notification_setups) {
    const key = `${s.channel}:${s.name}`;
    if (taken.has(key)) {
      run.matched.notification_setups++;
      continue;
    }
    const n = (count.get(s.channel) ?? 0) + 1;
    const max = s.channel === 'inapp' ? INAPP_SETUPS_MAX : CHANNEL_SETUPS_MAX;
    if (n > max) throw conflict(`A fleet has at most ${max} set-ups of a channel`);
    if (s.channel === 'inapp') {
      const users = [...new Set(s.users.flatMap((u) => (members.has(u) ? [members.get(u)!] : [])))];
      if (s.users.length > 0 && users.length === 0) {
        run.skipped.notification_setups++;
        continue;
      }
      await trx
        .insertInto('notification_setups')
        .values({
          fleet_id: fid,
          name: s.name,
          enabled: s.enabled,
          kinds: s.kinds,
          users: json(users),
          created_at: t,
          updated_at: t,
        })
        .execute();
    } else {
      const needsSecret = s.channel !== 'mail' && s.secret_set === 1 ? s.channel : null;
      const row = await trx
        .insertInto('channel_setups')
        .values({
          fleet_id: fid,
          channel: s.channel,
          name: s.name,
          enabled: needsSecret === null ? s.enabled : 0,
          kinds: s.kinds,
          lang: s.lang,
          config: json(configOf(s)),
          secret: null,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (needsSecret !== null) secrets.push({ channel: needsSecret, id: row.id, name: s.name });
    }
    taken.add(key);
    count.set(s.channel, n);
    run.created.notification_setups++;
  }
  return secrets;
}

/** The `config` JSON the channel writers keep (notification-channels/mappers.ts `configOf`). */
function configOf(s: Exclude<TransferNotificationSetup, { channel: 'inapp' }>) {
  if (s.channel === 'mail') return { recipients: s.recipients };
  if (s.channel === 'bot') return { url: s.url, chats: s.chats };
  return { url: s.url };
}
