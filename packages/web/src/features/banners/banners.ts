import type { SessionAuthReply } from '@fleetkeep/core';

/**
 * The banners of spec §8 from `config` of the auth reply: the maintenance notice in the user's language
 * (else English, else any), and the shutdown notice of old tracking systems once `sdf` has come, until
 * `sdt` when given.
 */

/** The banners' part of the application configuration of the auth reply (spec §3; core `sessionAuthReply`). */
export type AppConfig = Pick<SessionAuthReply['config'], 'notification' | 'shutdownNotification' | 'forum'>;

/** The application configuration of the auth reply; absent fields are null. */
export function appConfig(auth: { config?: Partial<AppConfig> }): AppConfig {
  const config = auth.config;
  return {
    notification: config?.notification ?? null,
    shutdownNotification: config?.shutdownNotification ?? null,
    forum: config?.forum ?? null,
  };
}

export function noticeText(notification: AppConfig['notification'], lang: string): string | null {
  if (!notification) return null;
  const pick = notification[lang] ?? notification.en ?? Object.values(notification)[0];
  return typeof pick === 'string' && pick.trim() !== '' ? pick : null;
}

/** Whether the shutdown notice shows at `nowSec` (Unix seconds). */
export function shutdownActive(shutdown: AppConfig['shutdownNotification'], nowSec: number): boolean {
  if (!shutdown) return false;
  if (nowSec < shutdown.sdf) return false;
  return shutdown.sdt === null || shutdown.sdt === undefined || nowSec < shutdown.sdt;
}

/** The forum link: `{lang}` (or a `lang` query parameter) set to en or ru, en by default. */
export function forumHref(forum: NonNullable<AppConfig['forum']>, lang: string): string {
  const langs = forum.langs.length > 0 ? forum.langs : ['en'];
  const id = langs.includes(lang) ? lang : langs.includes('en') ? 'en' : langs[0]!;
  if (forum.url.includes('{lang}')) return forum.url.replaceAll('{lang}', id);
  const url = new URL(forum.url);
  url.searchParams.set('lang', id);
  return url.toString();
}

/** A stable id of the notice text, so that a dismissed notice comes back when the text changes. */
export function noticeId(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
