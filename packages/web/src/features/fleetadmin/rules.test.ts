import { Acl, isValidAcl } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { ACL_GROUPS, implied, tick, toggle, untick } from './rules.ts';

describe('permission editor rules (spec §6)', () => {
  it('ticking a right switches on what it requires', () => {
    expect(tick(0, Acl.manageService)).toBe(Acl.manageService | Acl.viewService | Acl.viewInterval);
    expect(tick(0, Acl.archiveDelete)).toBe(
      Acl.archiveDelete | Acl.archiveEdit | Acl.manageService | Acl.viewService | Acl.viewInterval,
    );
    expect(tick(Acl.viewMap, Acl.viewNotification)).toBe(
      Acl.viewMap | Acl.viewNotification | Acl.viewInterval | Acl.viewService,
    );
    expect(tick(0, Acl.admin)).toBe(Acl.admin);
  });

  it('unticking a right also unticks every right requiring it', () => {
    const full = tick(tick(0, Acl.archiveDelete), Acl.viewNotification) | Acl.manageInterval;
    expect(untick(full, Acl.viewInterval)).toBe(0);
    expect(untick(full, Acl.manageService)).toBe(
      Acl.viewInterval | Acl.viewService | Acl.viewNotification | Acl.manageInterval,
    );
    expect(untick(full, Acl.archiveDelete)).toBe(full & ~Acl.archiveDelete);
  });

  it('always yields a valid acl from a valid one', () => {
    for (let acl = 0; acl <= 1023; acl++) {
      if (!isValidAcl(acl)) continue;
      for (const g of ACL_GROUPS)
        for (const b of g.boxes) {
          expect(isValidAcl(toggle(acl, b.bit, true))).toBe(true);
          expect(isValidAcl(toggle(acl, b.bit, false))).toBe(true);
        }
    }
  });

  it('shows a right another ticked right requires as implied; every box stays', () => {
    const manage = tick(0, Acl.manageService);
    expect(implied(manage, Acl.viewService)).toBe(true);
    expect(implied(manage, Acl.viewInterval)).toBe(true);
    expect(implied(manage, Acl.manageService)).toBe(false);
    expect(implied(Acl.viewService | Acl.viewInterval, Acl.viewService)).toBe(false);
    expect(implied(Acl.viewService | Acl.viewInterval, Acl.viewInterval)).toBe(true);
    // Not ticked: never implied.
    expect(implied(0, Acl.viewService)).toBe(false);
    // Unticking the Manage right frees the View right again.
    expect(implied(untick(manage, Acl.manageService), Acl.viewService)).toBe(false);
  });
});
