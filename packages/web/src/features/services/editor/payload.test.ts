import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api.ts';
import { refusalView } from '../../../lib/editorForm.ts';
import { archiveBody, batchBody, createBody, knownProblem, serviceFieldOf, updateBody } from './payload.ts';
import { emptyForm, formFromService, type ServiceForm, withStatus } from './rules.ts';
import { line, service, TODAY } from './testing.ts';

const named = (patch: Partial<ServiceForm> = {}): ServiceForm => ({
  ...emptyForm(TODAY, [{ t: 'u', id: 3 }]),
  name: 'Brakes',
  ...patch,
});

describe('request bodies', () => {
  it('builds a Due create body with km, exact decimals and no manual total beside line items', () => {
    const form = named({
      plannedDate: '2026-12-01',
      notifyDays: '5',
      mileage: '100000',
      engineHours: '12.5',
      manualCost: '99',
      lines: [line('3', '12.345', ' Filter ')],
    });
    expect(createBody(form, { t: 'u', id: 3 }, true)).toEqual({
      t: 'u',
      uid: 3,
      f: 1,
      n: 'Brakes',
      description: '',
      limit_date: '2026-12-01',
      notify_days: 5,
      mileage: 160934.4,
      engine_hours: 12.5,
      li: [{ n: 'Filter', t: 2, q: '3', c: '12.345' }],
    });
    const manual = createBody(named({ manualCost: '10.5' }), { t: 'd', id: 9 }, false);
    expect(manual).toMatchObject({ t: 'd', uid: 9, manual_cost: '10.5' });
    expect(manual).not.toHaveProperty('mileage');
  });

  it('builds Closed and In progress bodies with their dates', () => {
    const closed = createBody(
      named({ status: 'closed', startDate: '2026-11-01', endDate: '2026-11-02' }),
      { t: 'u', id: 3 },
      false,
    );
    expect(closed).toMatchObject({ f: 8, start_date: '2026-11-01', end_date: '2026-11-02' });
    expect(closed).not.toHaveProperty('limit_date');
    const started = createBody(
      named({ status: 'inProgress', startDate: '2026-11-20' }),
      { t: 'u', id: 3 },
      false,
    );
    expect(started).toMatchObject({ f: 2, start_date: '2026-11-20' });
    expect(started).not.toHaveProperty('end_date');
  });

  it('makes one batch row per chosen object', () => {
    const body = batchBody(named({ objects: ['u:3', 'u:4', 't:2'] }), false);
    expect(body.services.map((s) => [s.t, s.uid])).toEqual([
      ['u', 3],
      ['u', 4],
      ['t', 2],
    ]);
  });

  it('sends only what changed on update, never an untouched converted counter', () => {
    const initial = formFromService(service(), 180, true);
    expect(updateBody(initial, initial, true)).toEqual({});
    const started = withStatus(initial, 'inProgress', TODAY);
    expect(updateBody(started, initial, true)).toEqual({ f: 2, start_date: TODAY });
    expect(updateBody({ ...initial, mileage: '1' }, initial, true)).toEqual({ mileage: 1.609 });
    const withLines = { ...initial, lines: [line('2', '1.5')] };
    expect(updateBody(withLines, initial, true)).toEqual({ li: [{ n: 'Oil', t: 2, q: '2', c: '1.5' }] });
    // Removing the last line item lets the manual total come back (or be cleared).
    expect(updateBody(initial, withLines, true)).toEqual({ li: [], manual_cost: null });
  });

  it('sends the archive corrections only', () => {
    const closed = formFromService(
      service({ f: 8, start_date: 1_700_000_000, end_date: 1_700_000_000, notify_days: null }),
      0,
      false,
    );
    expect(archiveBody({ ...closed, endDate: '2023-11-20', manualCost: '5' }, closed, false)).toEqual({
      end_date: '2023-11-20',
      manual_cost: '5',
    });
    // The name is a correction too (trimmed), sent only when it changed.
    expect(archiveBody({ ...closed, name: ' Brakes, rear ' }, closed, false)).toEqual({ n: 'Brakes, rear' });
    expect(archiveBody({ ...closed, name: `${closed.name} ` }, closed, false)).toEqual({});
  });
});

const refused = (details: unknown) =>
  refusalView(new ApiError(4, 'Invalid input', 400, details), serviceFieldOf);

describe('server errors', () => {
  it('maps details onto fields, batch rows and line items included', () => {
    expect(
      refused([
        { field: 'body.limit_date', message: 'Must be today or later' },
        { field: 'body.services.1.end_date', message: 'Must not be earlier than the start date' },
        { field: 'body.li.2.q', message: 'Must be a positive number with at most 3 decimals' },
        { field: 'body.ivid', message: 'Unknown interval in this fleet' },
      ]),
    ).toEqual({
      fields: {
        plannedDate: 'Must be today or later',
        endDate: 'Must not be earlier than the start date',
        'lines.2.q': 'Must be a positive number with at most 3 decimals',
      },
      failure: 'Unknown interval in this fleet',
    });
    expect(knownProblem('Must be today or later')).toBe('notBeforeToday');
    expect(knownProblem('Must not be earlier than the start date')).toBe('endBeforeStart');
    expect(knownProblem('Unknown interval in this fleet')).toBeUndefined();
    expect(refused(undefined)).toEqual({ fields: {}, failure: 'Invalid input' });
  });
});

// customfields: the service's custom field values go out whole, only when they changed.
describe('custom field values', () => {
  it('sends cf on create when set, and on update and archive correction when changed', () => {
    expect(createBody(named(), { t: 'u', id: 3 }, false).cf).toBeUndefined();
    const cf = [{ id: 4, v: 'High' }];
    expect(createBody(named({ cf }), { t: 'u', id: 3 }, false).cf).toEqual(cf);
    expect(batchBody(named({ cf, objects: ['u:3', 'd:2'] }), false).services.map((s) => s.cf)).toEqual([
      cf,
      cf,
    ]);

    const initial = formFromService(
      service({
        cf: [
          { id: 9, v: 'b' },
          { id: 4, v: 'a' },
          { id: 5, v: '' },
        ],
      }),
      180,
      true,
    );
    expect(initial.cf).toEqual([
      { id: 9, v: 'b' },
      { id: 4, v: 'a' },
    ]);
    // The same values in another order are no change.
    expect(
      updateBody(
        {
          ...initial,
          cf: [
            { id: 4, v: 'a' },
            { id: 9, v: 'b' },
          ],
        },
        initial,
        true,
      ),
    ).toEqual({});
    expect(updateBody({ ...initial, cf: [{ id: 4, v: 'a' }] }, initial, true)).toEqual({
      cf: [{ id: 4, v: 'a' }],
    });
    expect(updateBody({ ...initial, cf: [] }, initial, true)).toEqual({ cf: [] });
    const closed = formFromService(
      service({ f: 8, start_date: 1, end_date: 1, notify_days: null }),
      0,
      false,
    );
    expect(archiveBody({ ...closed, cf }, closed, false)).toEqual({ cf });
  });

  it('maps value errors onto cf.{index}, batch rows included', () => {
    expect(
      refused([
        { field: 'body.cf.1.v', message: 'Not one of the options of this field' },
        { field: 'body.services.2.cf.0.id', message: 'Unknown custom field for this object' },
      ])?.fields,
    ).toEqual({
      'cf.1': 'Not one of the options of this field',
      'cf.0': 'Unknown custom field for this object',
    });
  });
});
