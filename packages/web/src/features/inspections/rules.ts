import type { DefectSeverity, InspectionItemWire, InspectionSubmitBody } from '@fleetkeep/core';

/**
 * The "Start inspection" draft and the submit body it makes (core contracts/inspections.ts), kept
 * pure for the unit tests: results by item index, the object as `u:1` / `t:2`, the meter in the
 * fleet's distance unit (converted to km for the body).
 */

export interface ResultDraft {
  ok: boolean | null;
  sev: DefectSeverity | null;
  v: number | '';
  tx: string;
  img: string | null;
}

export interface InspectionDraft {
  fm: number | null;
  obj: string | null;
  mi: number | '';
  eh: number | '';
  note: string;
  res: Record<number, ResultDraft>;
  sig: string | null;
  ack: boolean;
}

/** Fields of the draft an error can sit on: an item (`item.3`), the signature, the object, the ack. */
export type InspectionField = 'fm' | 'obj' | 'mi' | 'eh' | 'sig' | 'ack' | 'note' | `item.${number}`;

export const emptyResult = (): ResultDraft => ({ ok: null, sev: null, v: '', tx: '', img: null });

export const emptyDraft = (fm: number | null, obj: string | null = null): InspectionDraft => ({
  fm,
  obj,
  mi: '',
  eh: '',
  note: '',
  res: {},
  sig: null,
  ack: false,
});

export function parseObject(obj: string | null): { ot: 'u' | 't'; oi: number } | null {
  const m = /^(u|t):(\d+)$/.exec(obj ?? '');
  return m ? { ot: m[1] as 'u' | 't', oi: Number(m[2]) } : null;
}

const MILE_KM = 1.609344;

/** The body of the submit; `ackId` is the last report acknowledged (when the draft ticks it). */
export function submitBody(
  draft: InspectionDraft,
  items: readonly InspectionItemWire[],
  options: { miles: boolean; ackId: number | null },
): InspectionSubmitBody {
  const object = parseObject(draft.obj);
  const res = items.flatMap((item, i) => {
    const r = draft.res[i];
    if (!r) return [];
    const out: InspectionSubmitBody['res'][number] = { i };
    if (item.k === 'pf' && r.ok !== null) out.ok = r.ok;
    if (item.k === 'pf' && r.ok === false && r.sev && r.sev !== item.sev) out.sev = r.sev;
    if (item.k === 'num' && r.v !== '') out.v = r.v;
    if (r.tx.trim() && (item.k === 'text' || (item.k === 'pf' && r.ok === false))) out.tx = r.tx.trim();
    if (r.img && (item.k === 'photo' || item.k === 'sig' || (item.k === 'pf' && r.ok === false)))
      out.img = r.img;
    return Object.keys(out).length > 1 ? [out] : [];
  });
  return {
    fm: draft.fm ?? 0,
    ot: object?.ot ?? 'u',
    oi: object?.oi ?? 0,
    mi: draft.mi === '' ? null : options.miles ? Math.round(draft.mi * MILE_KM * 10) / 10 : draft.mi,
    eh: draft.eh === '' ? null : draft.eh,
    ...(draft.note.trim() && { note: draft.note.trim() }),
    res,
    sig: draft.sig ?? '',
    ...(options.ackId !== null && draft.ack && { ack: options.ackId }),
  };
}

/** What the draft lacks before it is sent: pass/fail answers, required answers, the signature, the ack. */
export function missingOf(
  draft: InspectionDraft,
  items: readonly InspectionItemWire[],
  ackNeeded: boolean,
): InspectionField[] {
  const out: InspectionField[] = [];
  if (draft.fm === null) out.push('fm');
  if (parseObject(draft.obj) === null) out.push('obj');
  items.forEach((item, i) => {
    const r = draft.res[i];
    const answered =
      item.k === 'pf'
        ? r?.ok === true || r?.ok === false
        : item.k === 'num'
          ? r?.v !== undefined && r.v !== ''
          : item.k === 'text'
            ? (r?.tx ?? '').trim() !== ''
            : !!r?.img;
    if (!answered && (item.k === 'pf' || item.req)) out.push(`item.${i}`);
  });
  if (ackNeeded && !draft.ack) out.push('ack');
  if (!draft.sig) out.push('sig');
  return out;
}

/** The draft field of a body path of a refusal (`body.res.3` names the 4th result, not item 3). */
export function fieldOfPath(
  path: readonly string[],
  body: InspectionSubmitBody | null,
): InspectionField | null {
  const [, name, row] = path;
  if (name === 'res' && row !== undefined && body) {
    const r = body.res[Number(row)];
    return r ? `item.${r.i}` : null;
  }
  if (name === 'oi' || name === 'ot') return 'obj';
  if (name === 'fm' || name === 'mi' || name === 'eh' || name === 'sig' || name === 'note') return name;
  if (name === 'ack') return 'ack';
  return null;
}
