import { Limits, mailSetupBody, reportMailBody, webhookSetupUpdateBody } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { problemOf, schemaProblems } from './coreResolver.ts';

const headField = (path: readonly string[]) => path[0] ?? null;

const mail = { n: 'Workshop', on: 1, k: 31, lang: 'en', recipients: ['a@example.com'] };

describe('forms checked with the core contracts', () => {
  it('a body the contract takes has no problems', () => {
    expect(schemaProblems(mailSetupBody, mail, headField)).toEqual({ fields: {}, rest: [] });
  });

  it('an empty name is required, a long one too long with the limit; a bad list entry lands on its list', () => {
    const found = schemaProblems(
      mailSetupBody,
      { ...mail, n: ' ', recipients: ['a@example.com', 'nope'] },
      headField,
    );
    expect(found.fields).toEqual({
      n: { problem: 'required', limit: 1 },
      recipients: { problem: 'invalid', limit: null },
    });
    expect(
      schemaProblems(mailSetupBody, { ...mail, n: 'x'.repeat(Limits.stringMax + 1) }, headField).fields,
    ).toEqual({ n: { problem: 'tooLong', limit: Limits.stringMax } });
  });

  it('an empty list is required, a long one too many; a number below its minimum too small', () => {
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.com`);
    expect(
      schemaProblems(mailSetupBody, { ...mail, recipients: [] }, headField).fields.recipients?.problem,
    ).toBe('required');
    expect(schemaProblems(mailSetupBody, { ...mail, recipients: many }, headField).fields.recipients).toEqual(
      {
        problem: 'tooMany',
        limit: 50,
      },
    );
    expect(schemaProblems(mailSetupBody, { ...mail, k: 0 }, headField).fields.k?.problem).toBe('tooSmall');
  });

  it('a missing field is required; a short secret too short (the PUT contract of a saved set-up)', () => {
    const { n: _, ...noName } = mail;
    expect(schemaProblems(mailSetupBody, noName, headField).fields.n?.problem).toBe('required');
    const hook = { n: 'Hook', on: 1, k: 31, lang: 'en', url: 'https://h.example/x', secret: 'short' };
    expect(schemaProblems(webhookSetupUpdateBody, hook, headField).fields).toEqual({
      secret: { problem: 'tooShort', limit: 8 },
    });
  });

  it('issues no field shows go to the rest; the first issue of a field wins', () => {
    const found = schemaProblems(mailSetupBody, { ...mail, n: '', k: 0 }, (path) =>
      path[0] === 'n' ? 'name' : null,
    );
    expect(found.fields).toEqual({ name: { problem: 'required', limit: 1 } });
    expect(found.rest).toEqual([{ problem: 'tooSmall', limit: 1 }]);
  });

  it('a cross-field rule of the contract (report mails: objects need their kind) is found too', () => {
    const body = {
      name: 'M',
      enabled: 1,
      recipients: ['a@example.com'],
      report: 'fuel',
      group: 'none',
      ot: null,
      ids: [3],
      format: 'csv',
      every: 'daily',
      weekday: 1,
      monthday: 1,
      hour: 6,
      lang: 'en',
    };
    expect(schemaProblems(reportMailBody, body, headField).fields).toHaveProperty('ids');
    expect(schemaProblems(reportMailBody, { ...body, hour: 24 }, headField).fields).toMatchObject({
      hour: { problem: 'tooBig' },
    });
  });

  it('an unknown issue on an empty value reads as required, on a value as invalid', () => {
    const issue = { code: 'custom', path: ['url'], message: 'Must be an http or https URL' };
    expect(problemOf(issue, { url: '  ' })).toEqual({ problem: 'required', limit: null });
    expect(problemOf(issue, { url: 'ftp://x' })).toEqual({ problem: 'invalid', limit: null });
  });
});
