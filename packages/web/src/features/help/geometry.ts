/**
 * Geometry of the floating help dialog (spec §9 "Help dialog"): default width 350 anchored bottom-right
 * below a top margin of 120; at least 270 by 350, at most 600 wide and as tall as the app; a minimized
 * box of at least 90 by 60. Pure functions over a box and the viewport.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Viewport {
  w: number;
  h: number;
}

export type HelpMode = 'normal' | 'minimized' | 'maximized';

export const HELP_DEFAULT_WIDTH = 350;
export const HELP_TOP_MARGIN = 120;
export const HELP_MIN_WIDTH = 270;
export const HELP_MIN_HEIGHT = 350;
export const HELP_MAX_WIDTH = 600;
export const HELP_MIN_BOX = { w: 90, h: 60 } as const;
export const HELP_MINIMIZED_WIDTH = 220;
export const HELP_SNAP_DISTANCE = 24;
export const HELP_RESIZE_DEBOUNCE_MS = 100;

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/** The size limits in a viewport: never larger than the viewport itself. */
export function sizeLimits(vp: Viewport): { minW: number; maxW: number; minH: number; maxH: number } {
  const maxW = Math.min(HELP_MAX_WIDTH, vp.w);
  const maxH = vp.h;
  return { minW: Math.min(HELP_MIN_WIDTH, maxW), maxW, minH: Math.min(HELP_MIN_HEIGHT, maxH), maxH };
}

/**
 * The narrowest page the docked dialog leaves beside it: a viewport that cannot keep this much
 * beside the dialog gets it docked at the bottom instead, at most half the height, so that the top of
 * the screen (its title and Save) stays in view.
 */
export const HELP_DOCK_MIN_PAGE_WIDTH = 600;

/**
 * Default box: 350 wide at the right edge, from the top margin to the bottom (spec §9). On a viewport
 * too narrow to keep a page beside it, the box docks at the bottom: as wide, at most half the height
 * (never below the minimum height nor above the top margin).
 */
export function defaultBox(vp: Viewport): Box {
  const { minW, maxW, minH, maxH } = sizeLimits(vp);
  const w = clamp(HELP_DEFAULT_WIDTH, minW, maxW);
  const full = clamp(vp.h - HELP_TOP_MARGIN, minH, maxH);
  const h =
    vp.w - w >= HELP_DOCK_MIN_PAGE_WIDTH ? full : Math.min(full, clamp(Math.round(vp.h / 2), minH, maxH));
  return { x: vp.w - w, y: vp.h - h, w, h };
}

/**
 * The widest viewport on which help opens as a full-screen sheet (the phone layout's width, as
 * `PHONE_MAX_WIDTH` of the data table): a phone has no room beside or below a floating box that would
 * not cover the screen's Save, so help takes the whole screen with its own close button, and closing it
 * gives the screen back whole (docs/product.md "Phone").
 */
export const HELP_SHEET_MAX_WIDTH = 600;

/** Whether help is a full-screen sheet in this viewport instead of a floating box. */
export function isSheet(vp: Viewport): boolean {
  return vp.w <= HELP_SHEET_MAX_WIDTH;
}

/** Room the page leaves for the dialog: a strip at the right or at the bottom. */
export interface Reserved {
  right: number;
  bottom: number;
}

/**
 * The dialog never covers the screen's primary action. Docked at the right edge, reaching the
 * bottom, with a page of at least `HELP_DOCK_MIN_PAGE_WIDTH` beside it, the page narrows by its width;
 * docked at the bottom edge otherwise, the page gets room below to scroll everything above it. A box
 * the user placed elsewhere, minimized or maximized, reserves nothing.
 */
export function reservedSpace(box: Box, mode: HelpMode, vp: Viewport): Reserved {
  const none = { right: 0, bottom: 0 };
  if (mode !== 'normal' || isSheet(vp)) return none;
  const b = clampBox(box, vp);
  const atRight = b.x + b.w >= vp.w;
  const atBottom = b.y + b.h >= vp.h;
  if (atRight && atBottom && vp.w - b.w >= HELP_DOCK_MIN_PAGE_WIDTH) return { right: b.w, bottom: 0 };
  if (atBottom && b.y > 0) return { right: 0, bottom: b.h };
  return none;
}

/** Keeps a normal box within the size limits and wholly inside the viewport. */
export function clampBox(box: Box, vp: Viewport): Box {
  const { minW, maxW, minH, maxH } = sizeLimits(vp);
  const w = clamp(Math.round(box.w), minW, maxW);
  const h = clamp(Math.round(box.h), minH, maxH);
  return { x: clamp(Math.round(box.x), 0, vp.w - w), y: clamp(Math.round(box.y), 0, vp.h - h), w, h };
}

/** Moves a box dropped within `distance` of an edge onto it (two edges at once make a corner). */
export function snapBox(box: Box, vp: Viewport, distance = HELP_SNAP_DISTANCE): Box {
  let { x, y } = box;
  if (Math.abs(x) <= distance) x = 0;
  else if (Math.abs(vp.w - (x + box.w)) <= distance) x = vp.w - box.w;
  if (Math.abs(y) <= distance) y = 0;
  else if (Math.abs(vp.h - (y + box.h)) <= distance) y = vp.h - box.h;
  return { ...box, x, y };
}

/** A box being dragged: the start box moved by the pointer delta, kept on screen. */
export function moveBox(start: Box, dx: number, dy: number, vp: Viewport): Box {
  return clampBox({ ...start, x: start.x + dx, y: start.y + dy }, vp);
}

/** An edge or corner handle: any of n, s, e, w and their pairs. */
export type ResizeEdge = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';

/** A box resized from a handle by the pointer delta; the opposite edges stay where they were. */
export function resizeBox(start: Box, edge: ResizeEdge, dx: number, dy: number, vp: Viewport): Box {
  const { minW, maxW, minH, maxH } = sizeLimits(vp);
  let { x, y, w, h } = start;
  if (edge.includes('e')) w = clamp(start.w + dx, minW, Math.min(maxW, vp.w - start.x));
  if (edge.includes('s')) h = clamp(start.h + dy, minH, Math.min(maxH, vp.h - start.y));
  if (edge.includes('w')) {
    const right = start.x + start.w;
    w = clamp(start.w - dx, minW, Math.min(maxW, right));
    x = right - w;
  }
  if (edge.includes('n')) {
    const bottom = start.y + start.h;
    h = clamp(start.h - dy, minH, Math.min(maxH, bottom));
    y = bottom - h;
  }
  return clampBox({ x, y, w, h }, vp);
}

/** The rectangle actually drawn for a mode: the whole viewport when maximized or a sheet. */
export function displayedBox(box: Box, mode: HelpMode, vp: Viewport): Box {
  if (mode === 'maximized' || isSheet(vp)) return { x: 0, y: 0, w: vp.w, h: vp.h };
  if (mode === 'minimized') {
    const w = Math.max(HELP_MIN_BOX.w, Math.min(HELP_MINIMIZED_WIDTH, box.w, vp.w));
    const h = HELP_MIN_BOX.h;
    return {
      x: clamp(box.x + box.w - w, 0, vp.w - w),
      y: clamp(box.y, 0, vp.h - h),
      w,
      h,
    };
  }
  return clampBox(box, vp);
}

/** What is remembered in local storage. */
export interface StoredHelp {
  box: Box;
  mode: HelpMode;
  open: boolean;
  section: string | null;
  /**
   * At the default place, whatever the viewport: until the user moves or resizes it, the box
   * follows the viewport's default (a phone docks it at the bottom, a wide screen at the right).
   */
  docked: boolean;
}

/** The normal box of a state in a viewport: the default place while docked, else the box kept on screen. */
export function placedBox(help: Pick<StoredHelp, 'box' | 'docked'>, vp: Viewport): Box {
  return help.docked ? defaultBox(vp) : clampBox(help.box, vp);
}

/** A box the user dropped: still docked when it is where the default place is. */
export function isDefaultPlace(box: Box, vp: Viewport): boolean {
  const d = defaultBox(vp);
  return box.x === d.x && box.y === d.y && box.w === d.w && box.h === d.h;
}

function isBox(v: unknown): v is Box {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return ['x', 'y', 'w', 'h'].every((k) => typeof b[k] === 'number' && Number.isFinite(b[k]));
}

/** Reads a stored value defensively: anything malformed gives the defaults. */
export function parseStoredHelp(value: unknown, vp: Viewport): StoredHelp {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const mode: HelpMode =
    v.mode === 'minimized' || v.mode === 'maximized' || v.mode === 'normal' ? v.mode : 'normal';
  const box = isBox(v.box) ? clampBox(v.box, vp) : null;
  return {
    box: box ?? defaultBox(vp),
    mode,
    open: v.open === true,
    section: typeof v.section === 'string' ? v.section : null,
    docked: box === null || v.docked === true,
  };
}

/**
 * How far a dialog docked at the right (`reservedRight` wide) reaches over the screen's content box whose
 * right edge is at `contentRight` in a viewport `viewportWidth` wide: what the content must leave free.
 * A centred, width-capped content box on a wide screen may already end left of the dialog (0).
 */
export function mainOverlap(contentRight: number, reservedRight: number, viewportWidth: number): number {
  if (reservedRight <= 0) return 0;
  return Math.max(0, Math.ceil(contentRight - (viewportWidth - reservedRight)));
}
