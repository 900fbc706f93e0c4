import { describe, expect, it } from 'vitest';
import { isOldInternetExplorer } from './old-browser.js';

const OLD_IE = {
  'IE 6': 'Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1)',
  'IE 8': 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727)',
  'IE 9': 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0)',
  'IE 10': 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)',
  'IE 11': 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'IE 11 in compatibility view':
    'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E)',
};

const CURRENT = {
  Edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
  'legacy Edge':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041',
  Chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  Firefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  Safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Chromium on Android':
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
};

describe('isOldInternetExplorer', () => {
  it.each(Object.entries(OLD_IE))('recognises %s', (_name, userAgent) => {
    expect(isOldInternetExplorer(userAgent)).toBe(true);
  });

  it.each(Object.entries(CURRENT))('lets %s through', (_name, userAgent) => {
    expect(isOldInternetExplorer(userAgent)).toBe(false);
  });

  it('lets a missing or empty User-Agent through', () => {
    expect(isOldInternetExplorer(undefined)).toBe(false);
    expect(isOldInternetExplorer('')).toBe(false);
  });
});
