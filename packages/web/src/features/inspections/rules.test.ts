import type { InspectionItemWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { emptyDraft, emptyResult, fieldOfPath, missingOf, parseObject, submitBody } from './rules.ts';

const items: InspectionItemWire[] = [
  { k: 'pf', l: 'Brakes', key: null, sev: 'dangerous', req: true },
  { k: 'num', l: 'Pressure', key: null, sev: null, req: false },
  { k: 'text', l: 'Remarks', key: null, sev: null, req: true },
];

describe('start inspection draft', () => {
  it('parses the object choice', () => {
    expect(parseObject('u:12')).toEqual({ ot: 'u', oi: 12 });
    expect(parseObject('t:3')).toEqual({ ot: 't', oi: 3 });
    expect(parseObject(null)).toBeNull();
  });

  it('lists what is missing: pass/fail answers, required answers, ack, signature', () => {
    const draft = emptyDraft(1, 'u:5');
    expect(missingOf(draft, items, true)).toEqual(['item.0', 'item.2', 'ack', 'sig']);
    draft.res[0] = { ...emptyResult(), ok: false };
    draft.res[2] = { ...emptyResult(), tx: 'ok' };
    draft.sig = 'data:image/png;base64,AA==';
    expect(missingOf(draft, items, false)).toEqual([]);
  });

  it('makes the body: severity only when changed, remark and photo only on a fail, miles to km, the ack', () => {
    const draft = emptyDraft(1, 'u:5');
    draft.res[0] = { ok: false, sev: 'minor', v: '', tx: ' soft pedal ', img: 'data:image/jpeg;base64,AA==' };
    draft.res[1] = { ...emptyResult(), v: 8.5, tx: 'ignored' };
    draft.res[2] = { ...emptyResult(), tx: 'fine' };
    draft.mi = 100;
    draft.sig = 'data:image/png;base64,AA==';
    draft.ack = true;
    const body = submitBody(draft, items, { miles: true, ackId: 9 });
    expect(body).toEqual({
      fm: 1,
      ot: 'u',
      oi: 5,
      mi: 160.9,
      eh: null,
      res: [
        { i: 0, ok: false, sev: 'minor', tx: 'soft pedal', img: 'data:image/jpeg;base64,AA==' },
        { i: 1, v: 8.5 },
        { i: 2, tx: 'fine' },
      ],
      sig: 'data:image/png;base64,AA==',
      ack: 9,
    });
    draft.res[0] = { ...draft.res[0]!, sev: 'dangerous' };
    expect(submitBody(draft, items, { miles: false, ackId: null }).res[0]).not.toHaveProperty('sev');
  });

  it('puts a refused result on its item', () => {
    const body = submitBody({ ...emptyDraft(1, 'u:5'), res: { 2: { ...emptyResult(), tx: 'x' } } }, items, {
      miles: false,
      ackId: null,
    });
    expect(fieldOfPath(['body', 'res', '0'], body)).toBe('item.2');
    expect(fieldOfPath(['body', 'ack'], body)).toBe('ack');
    expect(fieldOfPath(['body', 'oi'], body)).toBe('obj');
  });
});
