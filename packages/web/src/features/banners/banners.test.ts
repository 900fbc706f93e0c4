import { describe, expect, it } from 'vitest';
import { appConfig, forumHref, noticeId, noticeText, shutdownActive } from './banners.ts';

describe('banners (spec §8)', () => {
  it('shows the notice in the user language, else English, else any', () => {
    const n = { en: 'Maintenance', de: 'Wartung', ru: 'Работы' };
    expect(noticeText(n, 'de')).toBe('Wartung');
    expect(noticeText(n, 'fi')).toBe('Maintenance');
    expect(noticeText({ ru: 'Работы' }, 'fi')).toBe('Работы');
    expect(noticeText(null, 'en')).toBeNull();
    expect(noticeText({}, 'en')).toBeNull();
  });

  it('shows the shutdown notice from sdf, until sdt when given', () => {
    expect(shutdownActive(null, 100)).toBe(false);
    expect(shutdownActive({ sdf: 100, sdt: null }, 99)).toBe(false);
    expect(shutdownActive({ sdf: 100, sdt: null }, 100)).toBe(true);
    expect(shutdownActive({ sdf: 100, sdt: 200 }, 199)).toBe(true);
    expect(shutdownActive({ sdf: 100, sdt: 200 }, 200)).toBe(false);
  });

  it('opens the forum in en or ru, en by default', () => {
    const forum = { url: 'https://forum.example/{lang}/', langs: ['en', 'ru'] };
    expect(forumHref(forum, 'ru')).toBe('https://forum.example/ru/');
    expect(forumHref(forum, 'de')).toBe('https://forum.example/en/');
    expect(forumHref({ url: 'https://forum.example/', langs: ['en', 'ru'] }, 'ru')).toBe(
      'https://forum.example/?lang=ru',
    );
  });

  it('identifies a notice by its text', () => {
    expect(noticeId('a')).toBe(noticeId('a'));
    expect(noticeId('a')).not.toBe(noticeId('b'));
  });
});

describe('appConfig', () => {
  it('reads the config of the auth reply, null when a server sends none', () => {
    expect(appConfig({})).toEqual({ notification: null, shutdownNotification: null, forum: null });
    const config = { notification: { en: 'x' }, shutdownNotification: { sdf: 1, sdt: null }, forum: null };
    expect(appConfig({ config })).toEqual(config);
  });
});
