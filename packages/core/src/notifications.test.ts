import { describe, expect, it } from 'vitest';
import { Acl, ServiceFlag as F, NotificationKind as K } from './constants.js';
import {
  alertSelectionBody,
  inAppSetupBody,
  inAppSetupTestBody,
  inAppSetupUpdateBody,
} from './contracts/notifications.js';
import {
  enabledKinds,
  type InAppSetupRule,
  initialReadTime,
  isNotificationKind,
  isSettledWarning,
  kindsOf,
  type NotificationCandidate,
  notificationLink,
  notificationRecipients,
  setupFor,
  testKindOf,
} from './notifications.js';

const VIEW_SERVICE = Acl.viewService | Acl.viewInterval;
const member = (userId: number, acl = VIEW_SERVICE, enabled = 31): NotificationCandidate => ({
  userId,
  acl,
  enabled,
});
const setup = (id: number, k: number, users: number[] = [], on = true): InAppSetupRule => ({
  id,
  on,
  k,
  users,
});

describe('kinds (DESIGN §6: the status bits 1/2/4/8/16)', () => {
  it('a kind is exactly one of the five bits', () => {
    expect([1, 2, 4, 8, 16].every(isNotificationKind)).toBe(true);
    for (const v of [0, 3, 31, 32, 128, 256]) expect(isNotificationKind(v)).toBe(false);
  });

  it('kindsOf splits a mask lowest first; the test kind is the lowest', () => {
    expect(kindsOf(31)).toEqual([1, 2, 4, 8, 16]);
    expect(kindsOf(K.overdue | K.rejected | 64)).toEqual([4, 16]);
    expect(testKindOf(K.closed | K.overdue)).toBe(K.overdue);
    expect(testKindOf(K.rejected)).toBe(K.rejected);
  });
});

describe('enabledKinds (the user setting notification.enabled)', () => {
  it('defaults to every kind (31) when unset or malformed', () => {
    for (const s of [
      null,
      {},
      { notification: {} },
      { notification: { enabled: 'x' } },
      { notification: { enabled: -1 } },
    ])
      expect(enabledKinds(s)).toBe(31);
  });

  it('reads the saved mask, keeping only kind bits', () => {
    expect(enabledKinds({ notification: { enabled: 0 } })).toBe(0);
    expect(enabledKinds({ notification: { enabled: 5 } })).toBe(5);
    expect(enabledKinds({ notification: { enabled: 64 | 2 } })).toBe(2);
  });
});

describe('setupFor (which set-up addresses a user for a kind)', () => {
  it('a fleet without set-ups is the default for everyone (null)', () => {
    expect(setupFor([], 7, K.upcoming)).toBeNull();
  });

  it('the first switched-on set-up (lowest id) whose kinds and users include them', () => {
    const setups = [setup(9, K.overdue), setup(3, K.overdue | K.upcoming, [7]), setup(5, K.upcoming)];
    expect(setupFor(setups, 7, K.overdue)).toBe(3);
    expect(setupFor(setups, 8, K.overdue)).toBe(9);
    expect(setupFor(setups, 8, K.upcoming)).toBe(5);
    expect(setupFor(setups, 8, K.closed)).toBeUndefined();
  });

  it('a switched-off set-up addresses nobody; then the fleet default no longer applies', () => {
    expect(setupFor([setup(1, 31, [], false)], 7, K.upcoming)).toBeUndefined();
  });

  it('with the event time: the set-ups as they stood then (one made later hears nothing of it)', () => {
    const setups = [
      { ...setup(1, K.upcoming, [8]), since: 1_000 },
      { ...setup(2, K.upcoming, [7]), since: 2_000 },
    ];
    expect(setupFor(setups, 7, K.upcoming, 2_000)).toBe(2);
    expect(setupFor(setups, 7, K.upcoming, 1_999)).toBeUndefined();
    expect(setupFor(setups, 8, K.upcoming, 1_999)).toBe(1);
    // Before any of them: the fleet had none, so its default applied.
    expect(setupFor(setups, 7, K.upcoming, 999)).toBeNull();
    expect(setupFor(setups, 7, K.upcoming)).toBe(2);
    expect(notificationRecipients(K.upcoming, [member(7), member(8)], setups, 1_500)).toEqual([
      { userId: 8, setupId: 1 },
    ]);
  });
});

describe('notificationRecipients (spec §4, §6)', () => {
  it('not the members who could not yet see the fleet when the event happened', () => {
    const late = { ...member(2), since: 1_000 };
    expect(notificationRecipients(K.upcoming, [member(1), late], [], 999).map((r) => r.userId)).toEqual([1]);
    expect(notificationRecipients(K.upcoming, [member(1), late], [], 1_000).map((r) => r.userId)).toEqual([
      1, 2,
    ]);
    // Without the event's time (a set-up test), every member counts.
    expect(notificationRecipients(K.upcoming, [late], []).map((r) => r.userId)).toEqual([2]);
  });

  it('members who may view services, whose mask holds the kind', () => {
    const candidates = [
      member(1),
      member(2, Acl.admin), // admin-only: no viewService
      member(3, Acl.viewService), // viewService without its dependency viewInterval
      member(4, VIEW_SERVICE, K.overdue), // mask excludes "due"
      member(5, VIEW_SERVICE | Acl.manageService, K.upcoming),
      member(6, 0),
    ];
    expect(notificationRecipients(K.upcoming, candidates, [])).toEqual([
      { userId: 1, setupId: null },
      { userId: 5, setupId: null },
    ]);
    expect(notificationRecipients(K.overdue, candidates, []).map((r) => r.userId)).toEqual([1, 4]);
  });

  it('only the users and kinds the set-ups address, each once, with the set-up that did', () => {
    const candidates = [member(1), member(2), member(3), member(1)];
    const setups = [setup(10, K.closed, [2]), setup(11, K.closed | K.rejected, [1, 2])];
    expect(notificationRecipients(K.closed, candidates, setups)).toEqual([
      { userId: 1, setupId: 11 },
      { userId: 2, setupId: 10 },
    ]);
    expect(notificationRecipients(K.upcoming, candidates, setups)).toEqual([]);
  });

  it('no one for something that is not a kind', () => {
    expect(notificationRecipients(0, [member(1)], [])).toEqual([]);
    expect(notificationRecipients(F.overdueByDays, [member(1)], [])).toEqual([]);
  });
});

describe('isSettledWarning (spec §4 "a notification view returns nothing for …")', () => {
  it('a due or overdue warning of a service now in progress, closed or rejected shows nothing', () => {
    for (const kind of [K.upcoming, K.overdue])
      for (const f of [F.inProgress, F.closed, F.rejected]) expect(isSettledWarning(kind, f)).toBe(true);
  });

  it('a warning of a still open service shows; the reports of the changes themselves show', () => {
    expect(isSettledWarning(K.upcoming, F.upcoming | F.manually)).toBe(false);
    expect(isSettledWarning(K.overdue, F.upcoming | F.overdue | F.overdueByMileage)).toBe(false);
    expect(isSettledWarning(K.inProgress, F.inProgress)).toBe(false);
    expect(isSettledWarning(K.closed, F.closed)).toBe(false);
    expect(isSettledWarning(K.rejected, F.rejected)).toBe(false);
    expect(isSettledWarning(K.upcoming, null)).toBe(false);
  });
});

describe('read time and link', () => {
  it('a notification of the user’s own change starts read; others start unread', () => {
    expect(initialReadTime(5, 5, 1000)).toBe(1000);
    expect(initialReadTime(5, 6, 1000)).toBeNull();
    expect(initialReadTime(5, null, 1000)).toBeNull();
  });

  it('links to /service/{id} (spec §2)', () => {
    expect(notificationLink(42)).toBe('/service/42');
    expect(notificationLink(null)).toBeNull();
  });
});

describe('contracts', () => {
  it('a set-up needs a name and a kind mask of 1..31; users default to everyone', () => {
    expect(inAppSetupBody.parse({ n: 'Shop', k: 5 })).toEqual({ n: 'Shop', on: 1, k: 5, users: [] });
    for (const bad of [
      { n: '', k: 1 },
      { n: 'x', k: 0 },
      { n: 'x', k: 32 },
      { n: 'x', k: 1, fleet_id: 2 },
    ])
      expect(inAppSetupBody.safeParse(bad).success).toBe(false);
  });

  it('an update takes the set-up as read (id dropped) and refuses unknown keys', () => {
    expect(inAppSetupUpdateBody.parse({ id: 3, n: 'A', on: 0, k: 2, users: [1] })).toEqual({
      n: 'A',
      on: 0,
      k: 2,
      users: [1],
    });
    expect(inAppSetupUpdateBody.safeParse({ fleet_id: 1 }).success).toBe(false);
    expect(inAppSetupTestBody.parse({ k: 4 })).toEqual({ k: 4, on: 1, users: [] });
  });

  it('read and delete take event ids or one kind, not both, not neither', () => {
    expect(alertSelectionBody.safeParse({ event_ids: ['a'] }).success).toBe(true);
    expect(alertSelectionBody.safeParse({ t: 4 }).success).toBe(true);
    for (const bad of [{}, { event_ids: ['a'], t: 4 }, { t: 3 }, { event_ids: [] }, { t: 4, uid: 1 }])
      expect(alertSelectionBody.safeParse(bad).success).toBe(false);
  });
});
