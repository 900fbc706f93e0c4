import { describe, expect, it } from 'vitest';
import {
  type ChannelEventSnapshot,
  DELIVERY_ATTEMPTS_MAX,
  DELIVERY_BACKOFF_SECONDS,
  retryDelay,
  secretTail,
  serviceUrl,
  setupsFor,
  signatureBase,
  webhookPayload,
} from './notification-channels.js';

const snapshot: ChannelEventSnapshot = {
  eventId: 'e-1',
  type: 'service.overdue',
  kind: 4,
  at: 1_700_000_000,
  fleet: { id: 3, name: 'Acme', tz: 0, cur: 'EUR', ms: 0 },
  service: {
    id: 42,
    name: 'Oil change',
    f: 1 | 256,
    plannedDate: 1_700_086_400,
    limitMileage: 15000,
    limitEngineHours: null,
    cost: 120.5,
  },
  object: { type: 'u', id: 7, name: 'Truck 7' },
};

describe('retry schedule', () => {
  it('waits 1 min, 5 min, 30 min, 2 h, then gives up', () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([60, 300, 1800, 7200]);
    expect(retryDelay(5)).toBeNull();
    expect(DELIVERY_ATTEMPTS_MAX).toBe(DELIVERY_BACKOFF_SECONDS.length + 1);
  });
  it('grows with every attempt', () => {
    for (let i = 1; i < DELIVERY_BACKOFF_SECONDS.length; i++)
      expect(retryDelay(i + 1)!).toBeGreaterThan(retryDelay(i)!);
  });
});

describe('set-ups an event goes to', () => {
  const setups = [
    { id: 1, on: true, k: 1 | 4 },
    { id: 2, on: false, k: 31 },
    { id: 3, on: true, k: 8 },
    { id: 4, on: true, k: 31 },
  ];
  it('switched-on set-ups whose kinds include the kind', () => {
    expect(setupsFor(setups, 4).map((s) => s.id)).toEqual([1, 4]);
    expect(setupsFor(setups, 8).map((s) => s.id)).toEqual([3, 4]);
    expect(setupsFor(setups, 2).map((s) => s.id)).toEqual([4]);
  });
  it('leaves out set-ups made after the event', () => {
    const dated = [
      { id: 1, on: true, k: 4, since: 1_000 },
      { id: 2, on: true, k: 4, since: 2_000 },
      { id: 3, on: true, k: 4 },
    ];
    expect(setupsFor(dated, 4, 1_500).map((s) => s.id)).toEqual([1, 3]);
    expect(setupsFor(dated, 4, 2_000).map((s) => s.id)).toEqual([1, 2, 3]);
    expect(setupsFor(dated, 4, 999).map((s) => s.id)).toEqual([3]);
    expect(setupsFor(dated, 4).map((s) => s.id)).toEqual([1, 2, 3]);
  });
  it('nothing for what is not one kind bit', () => {
    expect(setupsFor(setups, 5)).toEqual([]);
    expect(setupsFor(setups, 256)).toEqual([]);
  });
});

describe('webhook payload (PRODUCT.md "Notifications")', () => {
  it('holds the event, fleet, service, object and link', () => {
    expect(webhookPayload(snapshot, 'https://fleet.example.com/')).toEqual({
      event: { id: 'e-1', type: 'service.overdue', kind: 4, kind_name: 'overdue', time: 1_700_000_000 },
      fleet: { id: 3, name: 'Acme', currency: 'EUR' },
      service: {
        id: 42,
        name: 'Oil change',
        f: 257,
        planned_date: 1_700_086_400,
        limit_mileage_km: 15000,
        limit_engine_hours: null,
        cost: 120.5,
      },
      object: { type: 'unit', id: 7, name: 'Truck 7' },
      link: 'https://fleet.example.com/service/42',
    });
  });
  it('links to /service/{id} without a double slash', () => {
    expect(serviceUrl('http://h:8080', 5)).toBe('http://h:8080/service/5');
    expect(serviceUrl('http://h:8080//', 5)).toBe('http://h:8080/service/5');
  });
});

describe('signature base and secrets', () => {
  it('signs "<timestamp>.<raw body>"', () => {
    expect(signatureBase(1700000000, '{"a":1}')).toBe('1700000000.{"a":1}');
  });
  it('shows the last 4 characters of a secret only', () => {
    expect(secretTail('123456:ABCDEFG')).toBe('DEFG');
    expect(secretTail(null)).toBe('');
    expect(secretTail('ab')).toBe('ab');
  });
});
