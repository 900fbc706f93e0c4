import { describe, expect, it } from 'vitest';
import { IssueImportError } from './import-issues.js';
import { checkImportRows, guessImportMapping, type ImportCheckContext, ImportError } from './imports.js';

const ctx: ImportCheckContext = {
  dateFormat: 'DD.MM.YYYY',
  today: '2026-06-15',
  units: [
    { id: 1, n: 'Truck 1' },
    { id: 2, n: 'Twin' },
    { id: 3, n: 'Twin' },
    { id: 4, n: 'Flatbed' },
  ],
  trailers: [
    { id: 7, n: 'Reefer 2' },
    { id: 8, n: 'Flatbed' },
  ],
  fleetId: 9,
};
const check = (rows: Record<string, string>[]) => checkImportRows('issues', rows, ctx);
const keys = (r: ReturnType<typeof check>) => r.issues.map((i) => `${i.row}.${i.field}:${i.key}`);

describe('the issues import (docs/product.md "Issues")', () => {
  it('builds one issue per row: unit or trailer by name, defaults for priority, status and date', () => {
    const r = check([
      {
        object: 'Truck 1',
        title: ' Brake light out ',
        description: 'Left side',
        priority: 'High',
        reported_date: '03.06.2026',
        status: 'resolved',
      },
      { object: 'Reefer 2', title: 'Door seal torn', priority: '', status: 'Not a defect' },
      { object: 'Flatbed', title: 'Strap worn' },
    ]);
    expect(r.issues).toEqual([]);
    expect(r.payloads).toEqual([
      {
        kind: 'issues',
        rows: [0],
        data: {
          object_type: 'u',
          object_id: 1,
          title: 'Brake light out',
          description: 'Left side',
          priority: 'high',
          reported_date: '2026-06-03',
          status: 'resolved',
        },
      },
      {
        kind: 'issues',
        rows: [1],
        data: {
          object_type: 't',
          object_id: 7,
          title: 'Door seal torn',
          priority: 'medium',
          status: 'closed',
        },
      },
      // A unit's name wins over a trailer's of the same name.
      {
        kind: 'issues',
        rows: [2],
        data: { object_type: 'u', object_id: 4, title: 'Strap worn', priority: 'medium', status: 'open' },
      },
    ]);
  });

  it('lists every row error and writes nothing', () => {
    const r = check([
      { object: 'truck 1', title: 'Case counts' },
      { object: 'Twin', title: 'Which one?' },
      { object: 'Truck 1', title: '', priority: 'urgent', status: 'in a work order' },
      { object: 'Truck 1', title: 'Tomorrow', reported_date: '16.06.2026' },
      { object: 'Truck 1', title: 'Bad day', reported_date: '31.02.2026' },
      { object: 'Truck 1', title: 'x'.repeat(300) },
    ]);
    expect(keys(r)).toEqual([
      `0.object:${IssueImportError.object}`,
      `1.object:${IssueImportError.ambiguous}`,
      `2.title:${ImportError.required}`,
      `2.priority:${IssueImportError.priority}`,
      `2.status:${IssueImportError.status}`,
      `3.reported_date:${ImportError.future}`,
      `4.reported_date:${ImportError.date}`,
      `5.title:${ImportError.tooLong}`,
    ]);
    expect(r.payloads).toEqual([]);
  });

  it('guesses the columns of a Fleetio issues export and of translated titles', () => {
    expect(
      guessImportMapping('issues', [
        'Vehicle',
        'Summary',
        'Description',
        'Priority',
        'Reported date',
        'Status',
      ]),
    ).toEqual({
      object: 0,
      title: 1,
      description: 2,
      priority: 3,
      reported_date: 4,
      status: 5,
    });
    expect(guessImportMapping('issues', ['Fahrzeug oder Anhänger', 'Titel', 'Priorität'])).toMatchObject({
      title: 1,
      priority: 2,
    });
  });
});
