import { type InAppSetupWire, type NotificationWire, notificationLink } from '@fleetkeep/core';
import type { Selectable } from 'kysely';
import type { NotificationSetupTable, NotificationTable } from '../../db/schema.js';

/** Rows → the wire types of core contracts/notifications.ts. */

function parse(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export function notificationToWire(row: Selectable<NotificationTable>): NotificationWire {
  const data = parse(row.data);
  const name = text(data.n);
  return {
    id: row.event_id,
    nid: row.setup_id,
    t: row.kind,
    tm: Number(row.tm),
    stm: row.stm === null ? null : Number(row.stm),
    d: { f: typeof data.f === 'number' ? data.f : 0, n: name },
    params: { object_name: text(data.o), service_name: name },
    to: notificationLink(row.service_id),
    read: row.stm !== null,
    sid: row.service_id,
  };
}

export function setupToWire(row: Selectable<NotificationSetupTable>): InAppSetupWire {
  let users: unknown;
  try {
    users = JSON.parse(row.users);
  } catch {
    users = [];
  }
  return {
    id: row.id,
    n: row.name,
    on: row.enabled === 1 ? 1 : 0,
    k: row.kinds,
    users: Array.isArray(users) ? users.filter((u): u is number => typeof u === 'number') : [],
  };
}
