import { describe, expect, it } from 'vitest';
import {
  clampBox,
  defaultBox,
  displayedBox,
  moveBox,
  parseStoredHelp,
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
    // a phone narrower than the default width gets the whole width
    expect(defaultBox({ w: 320, h: 640 })).toEqual({ x: 0, y: 120, w: 320, h: 520 });
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
    expect(displayedBox(box, 'minimized', { w: 80, h: 50 })).toMatchObject({ w: 90, h: 60 });
  });

  it('restores a stored state and ignores malformed ones', () => {
    const stored = {
      box: { x: 10, y: 20, w: 400, h: 500 },
      mode: 'maximized',
      open: true,
      section: 'reports',
    };
    expect(parseStoredHelp(stored, vp)).toEqual(stored);
    expect(parseStoredHelp({ box: { x: 'a' }, mode: 'huge' }, vp)).toEqual({
      box: defaultBox(vp),
      mode: 'normal',
      open: false,
      section: null,
    });
    expect(parseStoredHelp(undefined, vp).box).toEqual(defaultBox(vp));
    expect(parseStoredHelp({ box: { x: 5000, y: 0, w: 400, h: 500 } }, vp).box.x).toBe(880);
  });
});
