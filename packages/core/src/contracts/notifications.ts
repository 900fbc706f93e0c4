import { z } from 'zod';
import { ALL_NOTIFICATION_KINDS, Limits } from '../constants.js';
import { acceptingReadOnly, flag, id } from './common.js';

/**
 * Wire contracts of the in-app notifications (spec §3
 * "Notification", §4 "Notification kinds", §7 "Notifications and alerts"; DESIGN §6 kinds 1/2/4/8/16).
 *
 * Decisions where spec §7 is ambiguous:
 *
 * 1. Two paths, two meanings. Spec §7 names `GET/POST /fleets/{id}/notifications` and
 *    `GET/PUT /fleets/{id}/notifications/{nid}`, and on its "in-app notification configs" line again
 *    `GET` (reply field `notifications`), `POST`, `PUT/DELETE /notifications/{id}` and
 *    `POST /notifications/test`, "all under /api/fleets/{fleetId}". These are the same paths, so they are
 *    one resource: `/api/fleets/{fid}/notifications[/{id}]` is the fleet's **in-app set-ups** (list,
 *    create, read one, change, delete, send a test). The user's own notifications, the bell's content,
 *    are `/api/fleets/{fid}/user/alerts`: `GET` lists them, `POST` marks read, `POST .../delete` deletes;
 *    both take the event ids (spec §7 "Marking read and deleting go through ... event_ids"), or a kind for
 *    "all of a kind" (spec §4).
 * 2. Who may call. Set-ups: admin or viewNotification on the fleet (spec §6 "Fleet
 *    administration and notification screens need admin or viewNotification"), need `fleet.settings`.
 *    Alerts: viewService (spec §6 "Notifications are initialised only if the acl includes viewService";
 *    the bell is hidden without it, spec §2), need `service.view`.
 * 3. What a set-up decides. A set-up names kinds and users (none: every member). A user gets a
 *    notification of a kind when a switched-on set-up addresses them for it, their `notification.enabled`
 *    holds it (spec §4) and they may view the fleet's services. A fleet with no set-up at all announces
 *    every kind to every member (so the bell works from the first day); once it has set-ups, they decide.
 *    An in-app set-up has no language: the client words each notification in its reader's language
 *    (title by kind, spec §4), unlike e-mail and bot set-ups, which send text.
 * 4. A notification's `id` is its event id: the domain event's UUID, one notification per event and user
 *    (spec §4 "Each event id is notified once only"); `nid` is the set-up that addressed the user (null:
 *    the fleet default). "Send test" gives the set-up's users a notification of its lowest kind that
 *    names no service (`sid` and `to` null, `d.n` the set-up's name).
 * 5. The list leaves out due and overdue warnings whose service has since gone in progress, closed or
 *    rejected (spec §4 "A notification view returns nothing for in-progress, closed or rejected
 *    records"; core notifications.ts `isSettledWarning`), and notifications of deleted services.
 */

/** The most event ids one read or delete call takes. */
export const ALERT_IDS_MAX = 1000;
/** The newest notifications `GET .../user/alerts` returns; `unread` counts all of them. */
export const ALERTS_LIST_MAX = 500;
/** Users one set-up may name. */
export const INAPP_SETUP_USERS_MAX = 1000;
/** Set-ups per fleet. */
export const INAPP_SETUPS_MAX = 100;
/** An event id: the domain event's UUID (test notifications get one too). */
export const EVENT_ID_MAX = 64;

const kind = z
  .union([z.literal(1), z.literal(2), z.literal(4), z.literal(8), z.literal(16)])
  .describe('Notification kind: 1 due, 2 in progress, 4 overdue, 8 closed, 16 rejected (DESIGN §6)');
const kindMask = z
  .number()
  .int()
  .min(1)
  .max(ALL_NOTIFICATION_KINDS)
  .describe('Kinds (bit mask): 1 due, 2 in progress, 4 overdue, 8 closed, 16 rejected');
const eventId = z.string().min(1).max(EVENT_ID_MAX);

// --- in-app set-ups: /api/fleets/{fid}/notifications ---

const inAppSetupFields = z.strictObject({
  n: z.string().trim().min(1).max(Limits.stringMax).describe('Name'),
  on: flag.default(1).describe('Switched on'),
  k: kindMask,
  users: z
    .array(id)
    .max(INAPP_SETUP_USERS_MAX)
    .default([])
    .describe('Users it addresses (members of the fleet); empty: every member'),
});

/** `POST /api/fleets/{fid}/notifications`. */
export const inAppSetupBody = inAppSetupFields;
export type InAppSetupBody = z.output<typeof inAppSetupBody>;

/** `PUT /api/fleets/{fid}/notifications/{id}`: any of the fields; the set-up as read is accepted. */
export const inAppSetupUpdateBody = acceptingReadOnly(
  z.strictObject({
    n: inAppSetupFields.shape.n.optional(),
    on: flag.optional(),
    k: kindMask.optional(),
    users: z.array(id).max(INAPP_SETUP_USERS_MAX).optional(),
  }),
  ['id'],
);
export type InAppSetupUpdateBody = z.output<typeof inAppSetupUpdateBody>;

/** `POST /api/fleets/{fid}/notifications/test`: the set-up as the form holds it (saved or not). */
export const inAppSetupTestBody = inAppSetupFields.extend({
  n: inAppSetupFields.shape.n.optional(),
  id: id.optional().describe('The saved set-up (ignored: the fields sent are tested)'),
});
export type InAppSetupTestBody = z.output<typeof inAppSetupTestBody>;

export const inAppSetupWire = z.object({
  id,
  n: z.string(),
  on: flag,
  k: z.number().int(),
  users: z.array(z.number().int()),
});
export type InAppSetupWire = z.infer<typeof inAppSetupWire>;

export const inAppSetupListReply = z.object({ notifications: z.array(inAppSetupWire) });
export const inAppSetupTestReply = z.object({
  sent: z.number().int().describe('Users who got the test notification'),
});

// --- the user's notifications: /api/fleets/{fid}/user/alerts ---

/** A notification as the bell shows it (spec §3 "Notification"). */
export const notificationWire = z.object({
  id: z.string().describe('Event id: read and delete take it'),
  nid: z.number().int().nullable().describe('The set-up that addressed the user; null: fleet default'),
  t: z.number().int().describe('Kind bit'),
  tm: z.number().int().describe('When it happened, Unix seconds'),
  stm: z.number().int().nullable().describe('When it was read; null while unread'),
  d: z.object({
    f: z.number().int().describe('Service status flags after the change'),
    n: z.string().describe('Service name'),
  }),
  params: z.object({ object_name: z.string(), service_name: z.string() }),
  to: z.string().nullable().describe('Link path, /service/{id}'),
  read: z.boolean(),
  sid: z.number().int().nullable().describe('Service id'),
});
export type NotificationWire = z.infer<typeof notificationWire>;

export const alertListReply = z.object({
  alerts: z.array(notificationWire).describe(`Newest first, at most ${ALERTS_LIST_MAX}`),
  unread: z.number().int().describe('Unread notifications in the fleet'),
});
export type AlertListReply = z.infer<typeof alertListReply>;

/** Which notifications a read or delete call means: event ids, or every one of a kind. */
export const alertSelectionBody = z
  .strictObject({
    event_ids: z.array(eventId).min(1).max(ALERT_IDS_MAX).optional(),
    t: kind.optional().describe('Every notification of this kind (mark all read, delete all)'),
  })
  .refine((b) => (b.event_ids === undefined) !== (b.t === undefined), {
    message: 'Send event_ids or t',
    path: ['event_ids'],
  });
export type AlertSelectionBody = z.infer<typeof alertSelectionBody>;

/** Marking read changes only unread ones (spec §4): `event_ids` lists those it changed. */
export const alertReadReply = z.object({ event_ids: z.array(z.string()), stm: z.number().int() });
export const alertDeleteReply = z.object({ event_ids: z.array(z.string()) });
