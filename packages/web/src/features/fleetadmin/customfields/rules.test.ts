import {
  CUSTOM_FIELD_OPTIONS_MAX,
  CustomFieldType,
  type CustomFieldWire,
  customFieldBody,
  Limits,
} from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../../lib/coreResolver.ts';
import {
  createBody,
  draftChanged,
  draftOf,
  type FieldDraft,
  fieldSchema,
  optionRow,
  optionsSummary,
  ownProblems,
  serverFieldOf,
  updateBody,
  valuesOfRefusal,
  valuesOutside,
} from './rules.ts';

/** The dialog's problems: the core contract's (by field) and the rules it does not state. */
function draftProblems(draft: FieldDraft, fields: readonly CustomFieldWire[], editingId: number | null) {
  const core = schemaProblems(fieldSchema(editingId !== null), createBody(draft), serverFieldOf).fields;
  const own = ownProblems(draft, fields, editingId);
  const option: Record<number, string> = { ...own.option };
  for (const [at, p] of Object.entries(core))
    if (at.startsWith('option.') && p) option[Number(at.slice(7))] ??= p.problem;
  return { n: core.n?.problem ?? own.n, options: core.options?.problem ?? own.options, option };
}
const hasProblems = (p: ReturnType<typeof draftProblems>) =>
  p.n !== undefined || p.options !== undefined || Object.keys(p.option).length > 0;

const field = (over: Partial<CustomFieldWire>): CustomFieldWire => ({
  id: 1,
  n: 'Depot',
  tp: CustomFieldType.text,
  t: 'u',
  s: {},
  ...over,
});
const list = (options: string[], over: Partial<FieldDraft> = {}): FieldDraft => ({
  n: 'Priority',
  tp: CustomFieldType.list,
  t: 'u',
  options: options.map((o) => optionRow(o)),
  ...over,
});

describe('custom-field draft checks (core customFieldBody, server option rules)', () => {
  it('a trimmed name of 1 to 128 characters; a list with distinct, non-empty options passes', () => {
    const draft = list(['Low', ' High '], { n: '  Priority  ' });
    expect(hasProblems(draftProblems(draft, [], null))).toBe(false);
    // What passes here passes the core contract too.
    expect(customFieldBody.safeParse(createBody(draft)).success).toBe(true);
    expect(createBody(draft)).toEqual({ n: 'Priority', tp: 2, t: 'u', s: { options: ['Low', 'High'] } });
  });

  it('refuses an empty or too long name', () => {
    expect(draftProblems(list(['a'], { n: '   ' }), [], null).n).toBe('required');
    expect(draftProblems(list(['a'], { n: 'x'.repeat(Limits.stringMax) }), [], null).n).toBeUndefined();
    expect(draftProblems(list(['a'], { n: 'x'.repeat(Limits.stringMax + 1) }), [], null).n).toBe('tooLong');
  });

  it('a name taken by another field of the same owner type is a duplicate, case-insensitively', () => {
    const fields = [field({ id: 7, n: 'Depot', t: 'u' }), field({ id: 8, n: 'Home base', t: 'd' })];
    const draft = { ...draftOf(null, 'u'), n: ' depot ' };
    expect(draftProblems(draft, fields, null).n).toBe('duplicate');
    // The field itself, and fields of another owner type, do not count.
    expect(draftProblems(draft, fields, 7).n).toBeUndefined();
    expect(draftProblems({ ...draft, n: 'Home base' }, fields, null).n).toBeUndefined();
    expect(draftProblems({ ...draft, n: 'Home base', t: 'd' }, fields, null).n).toBe('duplicate');
  });

  it('a list needs at least one option and at most the core maximum', () => {
    expect(draftProblems(list([]), [], null).options).toBe('needOne');
    const many = Array.from({ length: CUSTOM_FIELD_OPTIONS_MAX + 1 }, (_, i) => `o${i}`);
    // The core contract's maximum, found by the resolver.
    expect(draftProblems(list(many), [], null).options).toBe('tooMany');
    expect(draftProblems(list(many.slice(1)), [], null).options).toBeUndefined();
  });

  it('names each bad option: empty, too long, a repeat (trimmed, case-insensitive)', () => {
    const long = 'é'.repeat(Limits.stringMax + 1);
    const p = draftProblems(list(['Low', '  ', long, 'low ', 'High']), [], null);
    expect(p.option).toEqual({ 1: 'empty', 2: 'tooLong', 3: 'duplicate' });
    expect(draftProblems(list(['é'.repeat(Limits.stringMax)]), [], null).option).toEqual({});
  });

  it('a text field has no options to check and sends none', () => {
    const draft: FieldDraft = { ...list(['', '']), tp: CustomFieldType.text };
    expect(hasProblems(draftProblems(draft, [], null))).toBe(false);
    expect(createBody(draft)).toEqual({ n: 'Priority', tp: 1, t: 'u' });
    expect(updateBody(draft)).toEqual({ n: 'Priority', tp: 1, s: { options: [] } });
  });

  it('an update sends name, type and options but never the owner type', () => {
    expect(updateBody(list(['A', 'B'], { t: 'd' }))).toEqual({
      n: 'Priority',
      tp: 2,
      s: { options: ['A', 'B'] },
    });
  });
});

describe('drafts', () => {
  it('a new field starts as text for the given owner type with one empty option row', () => {
    const d = draftOf(null, 's');
    expect(d).toMatchObject({ n: '', tp: 1, t: 's' });
    expect(d.options.map((o) => o.text)).toEqual(['']);
  });

  it('an existing list field starts with its options, each row with its own key', () => {
    const d = draftOf(field({ tp: 2, s: { options: ['A', 'B'] } }));
    expect(d.options.map((o) => o.text)).toEqual(['A', 'B']);
    expect(new Set(d.options.map((o) => o.key)).size).toBe(2);
  });

  it('changed means something that would be sent differs', () => {
    const start = draftOf(field({ tp: 2, s: { options: ['A', 'B'] } }));
    expect(draftChanged({ ...start, n: ' Depot ' }, start)).toBe(false);
    expect(draftChanged({ ...start, n: 'Yard' }, start)).toBe(true);
    expect(draftChanged({ ...start, options: [...start.options, optionRow('C')] }, start)).toBe(true);
    expect(draftChanged({ ...start, tp: CustomFieldType.text }, start)).toBe(true);
  });
});

describe('server replies', () => {
  it('a refused safe delete names its values (error 10, the field refused with its values)', () => {
    expect(valuesOfRefusal(10, [{ id: 4, reason: 'In use', values: 3 }])).toBe(3);
    expect(valuesOfRefusal(10, [{ id: 4, reason: 'In use', values: 0 }])).toBeNull();
    expect(valuesOfRefusal(7, [{ id: 4, reason: 'In use', values: 3 }])).toBeNull();
    expect(valuesOfRefusal(10, [{ field: 'body.n', reason: 'x' }])).toBeNull();
    expect(
      valuesOfRefusal(10, [{ field: 'body.s.options', reason: 'Held', value: 'Riga', values: 2 }]),
    ).toBeNull();
    expect(valuesOfRefusal(10, undefined)).toBeNull();
  });

  it('a refused update lists the held values outside the new options', () => {
    expect(
      valuesOutside(10, [
        { field: 'body.s.options', reason: 'Held', value: 'Riga', values: 2 },
        { field: 'body.n', reason: 'taken' },
      ]),
    ).toEqual([{ value: 'Riga', count: 2 }]);
    expect(valuesOutside(4, [{ field: 'body.s.options', reason: 'Held', value: 'Riga', values: 2 }])).toEqual(
      [],
    );
  });

  it('field errors land on the name, the option list or one option row', () => {
    expect(serverFieldOf(['n'])).toBe('n');
    expect(serverFieldOf(['s', 'options'])).toBe('options');
    expect(serverFieldOf(['s', 'options', '3'])).toBe('option.3');
    expect(serverFieldOf(['tp'])).toBeNull();
  });

  it('the table summarises a list’s options; a text field has none', () => {
    expect(optionsSummary(field({ tp: 2, s: { options: ['Low', 'High'] } }))).toBe('Low, High');
    expect(optionsSummary(field({}))).toBe('');
  });
});
