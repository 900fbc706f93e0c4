import { describe, expect, it } from 'vitest';
import { DEFAULT_REMINDER_DAYS, daysLeft, documentExpiry, reminderDue, reminderStart } from './documents.js';

const DAY = 86_400;
const end = 1_800_000_000;

describe('document expiry', () => {
  it('is valid before the reminder window', () => {
    expect(documentExpiry(end, 30, end - 31 * DAY)).toBe('valid');
  });
  it('is expiring from N days before the end up to the end', () => {
    expect(documentExpiry(end, 30, end - 30 * DAY)).toBe('expiring');
    expect(documentExpiry(end, 30, end)).toBe('expiring');
    expect(documentExpiry(end, 7, end - 8 * DAY)).toBe('valid');
    expect(documentExpiry(end, 7, end - 7 * DAY)).toBe('expiring');
  });
  it('is expired once the end has passed', () => {
    expect(documentExpiry(end, 30, end + 1)).toBe('expired');
  });
  it('with no reminder days only expires', () => {
    expect(documentExpiry(end, 0, end - 1)).toBe('valid');
    expect(documentExpiry(end, 0, end)).toBe('expiring');
  });
  it('defaults to 30 days', () => {
    expect(DEFAULT_REMINDER_DAYS).toBe(30);
    expect(reminderStart(end, DEFAULT_REMINDER_DAYS)).toBe(end - 30 * DAY);
    expect(reminderStart(10, 30)).toBe(0);
  });
  it('counts whole days left', () => {
    expect(daysLeft(end, end - 3 * DAY - 5)).toBe(3);
    expect(daysLeft(end, end + DAY)).toBe(-1);
  });
  it('reminds once per period, in the window only', () => {
    expect(reminderDue({ validTo: end, remindedAt: null }, 30, end - 10 * DAY)).toBe(true);
    expect(reminderDue({ validTo: end, remindedAt: end - 11 * DAY }, 30, end - 10 * DAY)).toBe(false);
    expect(reminderDue({ validTo: end, remindedAt: null }, 30, end - 40 * DAY)).toBe(false);
    expect(reminderDue({ validTo: end, remindedAt: null }, 30, end + DAY)).toBe(false);
  });
});
