import { describe, expect, it } from 'vitest';
import {
  clampBox,
  defaultBox,
  displayedBox,
  HELP_SHEET_MAX_WIDTH,
  isDefaultPlace,
  isSheet,
  mainOverlap,
  moveBox,
  parseStoredHelp,
  placedBox,
  reservedSpace,
  resizeBox,
  sizeLimits,
  snapBox,
} from './geometry.ts';

const vp = { w: 1280, h: 800 };

describe('help dialog geometry (spec §9)', () => {
  it('defaults to 350 wide at the bottom right below a top margin of 120', () => {
    expect(defaultBox(vp)).toEqual({ x: 930, y: 120, w: 350, h: 680 });
    // a short screen keeps the minimum height of 350
    expect(defaultBox({ w: 1280, h: 400 })).toEqual({ x: 930, y: 50, w: 350, h: 350 });
    // a phone narrower than the default width gets the whole width, docked at the bottom:
    // half the height, never below the minimum height, so the top of the screen stays in view
    expect(defaultBox({ w: 320, h: 640 })).toEqual({ x: 0, y: 290, w: 320, h: 350 });
    expect(defaultBox({ w: 375, h: 812 })).toEqual({ x: 25, y: 406, w: 350, h: 406 });
    // too narrow to keep a page of 600 beside it: docked at the bottom too
    expect(defaultBox({ w: 900, h: 800 })).toEqual({ x: 550, y: 400, w: 350, h: 400 });
    expect(defaultBox({ w: 950, h: 800 })).toEqual({ x: 600, y: 120, w: 350, h: 680 });
  });

  it('follows the viewport while docked, keeps a placed box', () => {
    const phone = { w: 375, h: 812 };
    expect(placedBox({ box: defaultBox(vp), docked: true }, phone)).toEqual(defaultBox(phone));
    expect(placedBox({ box: { x: 10, y: 20, w: 300, h: 400 }, docked: false }, phone)).toEqual({
      x: 10,
      y: 20,
      w: 300,
      h: 400,
    });
    expect(isDefaultPlace(defaultBox(vp), vp)).toBe(true);
    expect(isDefaultPlace({ ...defaultBox(vp), x: 900 }, vp)).toBe(false);
  });

  it('makes the page leave room for the docked dialog, nothing for a placed one', () => {
    expect(reservedSpace(defaultBox(vp), 'normal', vp)).toEqual({ right: 350, bottom: 0 });
    // a tablet too narrow to keep a page beside it: docked at the bottom
    const tablet = { w: 700, h: 900 };
    expect(reservedSpace(defaultBox(tablet), 'normal', tablet)).toEqual({ right: 0, bottom: 450 });
    expect(reservedSpace(defaultBox(vp), 'minimized', vp)).toEqual({ right: 0, bottom: 0 });
    expect(reservedSpace(defaultBox(vp), 'maximized', vp)).toEqual({ right: 0, bottom: 0 });
    // moved away from the edges by the user: it floats, the page keeps its width
    expect(reservedSpace({ x: 530, y: 60, w: 350, h: 680 }, 'normal', vp)).toEqual({ right: 0, bottom: 0 });
    // a full-height box docked at the left reserves nothing either
    expect(reservedSpace({ x: 0, y: 0, w: 350, h: 800 }, 'normal', vp)).toEqual({ right: 0, bottom: 0 });
  });

  it('moves only the content out of the way of a right-docked dialog, by what it would cover', () => {
    // 1280 px: the 1200 px content (40..1240) would lie 310 px under the 350 px strip.
    expect(mainOverlap(1240, 350, 1280)).toBe(310);
    // A wide screen whose centred content ends left of the strip keeps it as it is.
    expect(mainOverlap(1560, 350, 1920)).toBe(0);
    expect(mainOverlap(1600, 350, 1920)).toBe(30);
    // Nothing docked at the right: nothing to leave free.
    expect(mainOverlap(375, 0, 375)).toBe(0);
  });

  it('limits the size to 270..600 by 350..app height, never beyond the viewport', () => {
    expect(sizeLimits(vp)).toEqual({ minW: 270, maxW: 600, minH: 350, maxH: 800 });
    expect(clampBox({ x: 0, y: 0, w: 100, h: 100 }, vp)).toMatchObject({ w: 270, h: 350 });
    expect(clampBox({ x: 0, y: 0, w: 900, h: 2000 }, vp)).toMatchObject({ w: 600, h: 800 });
    expect(sizeLimits({ w: 200, h: 300 })).toEqual({ minW: 200, maxW: 200, minH: 300, maxH: 300 });
  });

  it('keeps the box inside the viewport', () => {
    expect(clampBox({ x: -50, y: -10, w: 350, h: 400 }, vp)).toEqual({ x: 0, y: 0, w: 350, h: 400 });
    expect(clampBox({ x: 1200, y: 700, w: 350, h: 400 }, vp)).toEqual({ x: 930, y: 400, w: 350, h: 400 });
    expect(moveBox({ x: 100, y: 100, w: 350, h: 400 }, 5000, 5000, vp)).toEqual({
      x: 930,
      y: 400,
      w: 350,
      h: 400,
    });
  });

  it('snaps to an edge or a corner within 24 px, and not beyond', () => {
    const box = { x: 20, y: 300, w: 350, h: 400 };
    expect(snapBox(box, vp)).toEqual({ ...box, x: 0 });
    expect(snapBox({ ...box, x: 25 }, vp)).toEqual({ ...box, x: 25 });
    // right edge: 1280 - (910 + 350) = 20
    expect(snapBox({ ...box, x: 910 }, vp)).toEqual({ ...box, x: 930 });
    // bottom-left corner: 800 - (390 + 400) = 10
    expect(snapBox({ ...box, x: 10, y: 390 }, vp)).toEqual({ ...box, x: 0, y: 400 });
    // top-right corner
    expect(snapBox({ ...box, x: 920, y: 24 }, vp)).toEqual({ ...box, x: 930, y: 0 });
  });

  it('resizes from any edge, the opposite edge staying put, within the limits', () => {
    const start = { x: 500, y: 200, w: 350, h: 400 };
    expect(resizeBox(start, 'se', 100, 50, vp)).toEqual({ x: 500, y: 200, w: 450, h: 450 });
    expect(resizeBox(start, 'w', -100, 0, vp)).toEqual({ x: 400, y: 200, w: 450, h: 400 });
    expect(resizeBox(start, 'n', 0, 200, vp)).toEqual({ x: 500, y: 250, w: 350, h: 350 });
    expect(resizeBox(start, 'e', 1000, 0, vp)).toMatchObject({ x: 500, w: 600 });
    expect(resizeBox(start, 'nw', 1000, 1000, vp)).toEqual({ x: 580, y: 250, w: 270, h: 350 });
    expect(resizeBox(start, 's', 0, 1000, vp)).toMatchObject({ y: 200, h: 600 });
  });

  it('draws maximized as the whole app and minimized as a small box of at least 90 by 60', () => {
    const box = { x: 930, y: 120, w: 350, h: 680 };
    expect(displayedBox(box, 'maximized', vp)).toEqual({ x: 0, y: 0, w: 1280, h: 800 });
    const min = displayedBox(box, 'minimized', vp);
    expect(min.w).toBeGreaterThanOrEqual(90);
    expect(min.h).toBe(60);
    expect(min.x + min.w).toBe(1280);
    expect(displayedBox(box, 'minimized', { w: 700, h: 50 })).toMatchObject({ w: 220, h: 60 });
  });

  it('is a full-screen sheet at phone width, reserving nothing, whatever the mode and the box', () => {
    const phone = { w: 375, h: 812 };
    expect(isSheet(phone)).toBe(true);
    expect(isSheet({ w: HELP_SHEET_MAX_WIDTH, h: 800 })).toBe(true);
    expect(isSheet({ w: HELP_SHEET_MAX_WIDTH + 1, h: 800 })).toBe(false);
    expect(isSheet(vp)).toBe(false);
    const box = { x: 10, y: 300, w: 300, h: 400 };
    for (const mode of ['normal', 'minimized', 'maximized'] as const) {
      expect(displayedBox(box, mode, phone)).toEqual({ x: 0, y: 0, w: 375, h: 812 });
      expect(reservedSpace(defaultBox(phone), mode, phone)).toEqual({ right: 0, bottom: 0 });
    }
  });

  it('restores a stored state and ignores malformed ones', () => {
    const stored = {
      box: { x: 10, y: 20, w: 400, h: 500 },
      mode: 'maximized',
      open: true,
      section: 'reports',
      docked: false,
    };
    expect(parseStoredHelp(stored, vp)).toEqual(stored);
    expect(parseStoredHelp({ ...stored, docked: true }, vp).docked).toBe(true);
    expect(parseStoredHelp({ box: { x: 'a' }, mode: 'huge' }, vp)).toEqual({
      box: defaultBox(vp),
      mode: 'normal',
      open: false,
      section: null,
      docked: true,
    });
    expect(parseStoredHelp(undefined, vp).box).toEqual(defaultBox(vp));
    expect(parseStoredHelp({ box: { x: 5000, y: 0, w: 400, h: 500 } }, vp).box.x).toBe(880);
  });
});
