import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replyProblems, undeclaredFields } from './replies.js';

describe('reply contract check (http/replies.ts)', () => {
  const wire = z.object({
    id: z.number(),
    n: z.string(),
    lines: z.array(z.object({ q: z.number() })),
    tm: z.number().nullable(),
  });

  it('passes a reply that keeps its contract', () => {
    expect(replyProblems(wire, { id: 1, n: 'Oil', lines: [{ q: 2 }], tm: null })).toEqual([]);
  });

  it('names a wrong type and a missing field with their paths', () => {
    const problems = replyProblems(wire, { id: '1', n: 'Oil', lines: [{}], tm: null });
    expect(problems.some((p) => p.startsWith('id:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('lines.0.q:'))).toBe(true);
  });

  it('finds fields the contract does not declare, also deep in lists', () => {
    expect(
      replyProblems(wire, { id: 1, n: 'Oil', lines: [{ q: 2, secret: 'x' }], tm: 5, fleet_id: 3 }),
    ).toEqual(['.lines.0.secret is not declared', '.fleet_id is not declared']);
  });

  it('reads the value as JSON sends it: undefined fields are absent, not undeclared', () => {
    expect(undeclaredFields({ a: 1, b: undefined }, { a: 1 })).toEqual([]);
    expect(replyProblems(wire, { id: 1, n: 'Oil', lines: [], tm: 0, extra: undefined })).toEqual([]);
  });
});
