import { Acl, serviceCreateBody } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { draftErrors } from '../../../lib/editorForm.ts';
import { canWith } from '../../../lib/permissions.ts';
import { checkedBody, serviceFieldOf } from './payload.ts';
import {
  allowedStatuses,
  countersText,
  displayToKm,
  editMode,
  emptyForm,
  formFromService,
  kmToDisplay,
  linesTotal,
  lineTotal,
  type ServiceForm,
  stateObjects,
  thousandthsToNumber,
  todayIn,
  withStatus,
} from './rules.ts';
import { line, service, TODAY } from './testing.ts';
import { ownProblems, problemOfCore, tabOfField, type ValidateContext } from './validation.ts';

/** The permissions of a regular fleet user with this acl (core can()). */
const may = (acl: number) => canWith({ su: false, admin: false }, acl);

const ctx = (patch: Partial<ValidateContext> = {}): ValidateContext => ({
  today: TODAY,
  mode: 'full',
  isNew: true,
  initial: emptyForm(TODAY),
  ...patch,
});

/** The editor's problems of a form as useEditorForm finds them: the core contract's, then its own. */
const validate = (form: ServiceForm, c: ValidateContext, miles = false) =>
  c.mode === 'readonly'
    ? {}
    : draftErrors<ServiceForm, string>(form, {
        schema: serviceCreateBody,
        body: (f) => checkedBody(f, miles),
        fieldOf: serviceFieldOf,
        text: (problem, field) => problemOfCore(problem, field),
        check: (f) => ownProblems(f, c),
      });

const named = (patch: Partial<ServiceForm> = {}): ServiceForm => ({
  ...emptyForm(TODAY, [{ t: 'u', id: 3 }]),
  name: 'Brakes',
  ...patch,
});

describe('statuses', () => {
  it('offers Due, In progress and Closed for a new service and the server transitions otherwise', () => {
    expect(allowedStatuses(null)).toEqual(['due', 'inProgress', 'closed']);
    expect(allowedStatuses('due')).toEqual(['due', 'inProgress', 'closed', 'rejected']);
    expect(allowedStatuses('inProgress')).toEqual(['inProgress', 'due', 'closed', 'rejected']);
    expect(allowedStatuses('closed')).toEqual(['closed']);
    expect(allowedStatuses('rejected')).toEqual(['rejected']);
  });

  it('gives full, archive or read-only editing by acl (demo manager 1023, mechanic 194, viewer 66)', () => {
    expect(editMode(may(1023), null)).toBe('full');
    expect(editMode(may(1023), 8)).toBe('archive');
    expect(editMode(may(194), 2)).toBe('full');
    expect(editMode(may(194), 8)).toBe('readonly');
    expect(editMode(may(194), 16)).toBe('readonly');
    expect(editMode(may(66), 1)).toBe('readonly');
    expect(editMode(may(Acl.viewService | Acl.viewInterval | Acl.archiveEdit), 8)).toBe('readonly');
  });

  it('fills the dates a new status needs with today and drops notify days outside Due', () => {
    const f = withStatus({ ...named(), startDate: null, endDate: null, notifyDays: '2' }, 'closed', TODAY);
    expect(f).toMatchObject({ status: 'closed', startDate: TODAY, endDate: TODAY, notifyDays: '' });
  });
});

describe('navigation state', () => {
  it('keeps valid unique objects only', () => {
    expect(
      stateObjects({
        objects: [
          { id: 1, t: 'u' },
          { id: 1, t: 'u' },
          { id: 2, t: 'x' },
          { id: -1, t: 'd' },
          { id: 4, t: 't' },
        ],
      }),
    ).toEqual([
      { id: 1, t: 'u' },
      { id: 4, t: 't' },
    ]);
    expect(stateObjects(null)).toEqual([]);
    expect(stateObjects({ objects: 'no' })).toEqual([]);
  });
});

describe('numbers', () => {
  it('converts miles and km both ways to 3 decimals', () => {
    expect(kmToDisplay(160934.4, true)).toBe(100000);
    expect(displayToKm(100000, true)).toBe(160934.4);
    expect(kmToDisplay(12.3456, false)).toBe(12.346);
  });

  it('sums line items exactly: 3 × 12.345 + 0.1 × 0.2 without float drift', () => {
    expect(lineTotal(line('3', '12.345'))).toBe(37035);
    expect(linesTotal([line('3', '12.345'), line('0.1', '0.2')])).toBe(37055);
    expect(thousandthsToNumber(linesTotal([line('0.1', '0.1'), line('0.2', '1')]))).toBe(0.21);
    expect(lineTotal(line('', '1'))).toBeUndefined();
    expect(lineTotal(line('2', ''))).toBe(0);
    expect(linesTotal([line('x', '1'), line('2', '5.')])).toBe(10000);
  });

  it('takes the counters of a unit in the fleet unit', () => {
    expect(countersText({ cnm: 160934.4, cneh: 100.25 }, true)).toEqual({
      mileage: '100000',
      engineHours: '100.25',
    });
    expect(countersText(undefined, false)).toBeNull();
  });
});
describe('form ↔ wire', () => {
  it('reads a service in the fleet zone and unit', () => {
    const f = formFromService(service(), 180, true);
    expect(f).toMatchObject({
      status: 'due',
      objects: ['u:3'],
      plannedDate: '2026-11-25',
      startDate: null,
      notifyDays: '3',
      mileage: '100000',
      engineHours: '12.5',
    });
    expect(formFromService(service(), 180, true)).toEqual(f);
  });
});

describe("validation: the core contract, then the form's own rules", () => {
  it('requires a name and an object for a new service', () => {
    expect(validate({ ...emptyForm(TODAY) }, ctx())).toMatchObject({ name: 'required', objects: 'required' });
    expect(validate(named(), ctx())).toEqual({});
    expect(validate(named({ name: 'x'.repeat(129) }), ctx())).toMatchObject({ name: 'tooLong' });
  });

  it('refuses a Due planned date in the past, unless an overdue service keeps its old one', () => {
    expect(validate(named({ plannedDate: '2026-11-20' }), ctx())).toEqual({ plannedDate: 'notBeforeToday' });
    const overdue = named({ plannedDate: '2026-10-01' });
    expect(validate(overdue, ctx({ isNew: false, initial: overdue }))).toEqual({});
    expect(
      validate({ ...overdue, plannedDate: '2026-10-02' }, ctx({ isNew: false, initial: overdue })),
    ).toEqual({ plannedDate: 'notBeforeToday' });
    expect(validate(named({ notifyDays: '366' }), ctx())).toEqual({ notifyDays: 'notifyRange' });
    expect(validate(named({ notifyDays: '365' }), ctx())).toEqual({});
  });

  it('wants In progress started today or earlier', () => {
    expect(validate(named({ status: 'inProgress', startDate: '2026-11-22' }), ctx())).toEqual({
      startDate: 'notAfterToday',
    });
    expect(validate(named({ status: 'inProgress', startDate: TODAY }), ctx())).toEqual({});
  });

  it('wants Closed dates today or earlier, end not before start', () => {
    const closed = (startDate: string, endDate: string) => named({ status: 'closed', startDate, endDate });
    expect(validate(closed('2026-11-10', '2026-11-09'), ctx())).toEqual({ endDate: 'endBeforeStart' });
    expect(validate(closed('2026-11-22', '2026-11-23'), ctx())).toEqual({
      startDate: 'notAfterToday',
      endDate: 'notAfterToday',
    });
    expect(validate(closed('2026-11-10', '2026-11-10'), ctx())).toEqual({});
  });

  it('checks line rows, the archive end date and the archive name (a correction)', () => {
    const form = named({ lines: [line('0', '1'), line('', 'x', ''), line('1', '')] });
    expect(validate(form, ctx())).toEqual({
      'lines.0.q': 'positive',
      'lines.1.n': 'required',
      'lines.1.q': 'required',
      'lines.1.c': 'invalidNumber',
    });
    const archived = named({ status: 'closed', startDate: '2026-11-10', endDate: '2026-11-10' });
    expect(
      validate({ ...archived, endDate: '2026-11-09', name: '' }, ctx({ mode: 'archive', initial: archived })),
    ).toEqual({ endDate: 'endBeforeStart', name: 'required' });
    expect(validate({ ...archived, name: '' }, ctx({ mode: 'readonly' }))).toEqual({});
    // Counters in km up to COUNTER_MAX: a miles fleet's limit is lower in the unit shown.
    expect(validate(named({ mileage: '1000000000' }), ctx())).toEqual({});
    expect(validate(named({ mileage: '1000000000' }), ctx(), true)).toEqual({ mileage: 'tooLarge' });
    expect(validate(named({ manualCost: '12.' }), ctx())).toEqual({});
    expect(tabOfField('lines.0.q')).toBe('lines');
    expect(tabOfField('endDate')).toBe('main');
  });
});

describe('today', () => {
  it('takes today in the fleet zone', () => {
    // 2026-11-21 22:30 UTC is already the 22nd in UTC+3.
    const at = Date.UTC(2026, 10, 21, 22, 30) / 1000;
    expect(todayIn(180, at)).toBe('2026-11-22');
    expect(todayIn(0, at)).toBe('2026-11-21');
  });
});
