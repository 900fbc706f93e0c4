import { dvirItems } from '@fleetkeep/core';
import {
  type CaseEnv,
  FLEET_ADMINS,
  type MatrixUser,
  type Outcome,
  outcomes,
  type RouteCase,
} from './matrix.js';

/**
 * Permission-matrix cases of inspection forms and inspections (modules/inspections), spread into
 * ROUTE_CASES of routes.ts. Reading forms and inspections, submitting and acknowledging need
 * `inspection.submit` (who views services has it); forms, certification and deletion need
 * `inspection.manage` (who manages services); the retention setting is fleet administration. Another
 * fleet's form or inspection answers like an unknown one (404).
 */
const SUBMITTERS: MatrixUser[] = ['manager', 'mechanic', 'viewer'];
const MANAGERS: MatrixUser[] = ['manager', 'mechanic'];
const unknown: Outcome = { status: 404, error: 5 };
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const FORM = 'Matrix form';

const forms = (fid: number) => `/api/fleets/${fid}/inspection-forms`;
const insp = (fid: number) => `/api/fleets/${fid}/inspections`;

/** The fleet's own test form (made once, found again by name). */
async function seedForm({ t }: CaseEnv, fleetId: number): Promise<number> {
  const db = t.server.ctx.db.kysely;
  const found = await db
    .selectFrom('inspection_forms')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .where('name', '=', FORM)
    .executeTakeFirst();
  if (found) return found.id;
  const row = await db
    .insertInto('inspection_forms')
    .values({
      fleet_id: fleetId,
      name: FORM,
      builtin: null,
      items: JSON.stringify(dvirItems().slice(0, 1)),
      created_at: 1000,
      updated_at: 1000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A submitted, clean inspection of a unit of the fleet, written directly (with one open defect). */
async function seedInspection(env: CaseEnv, fleetId: number): Promise<{ id: number; defectId: number }> {
  const db = env.t.server.ctx.db.kysely;
  const unit = await db
    .selectFrom('units')
    .select('id')
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const formId = await seedForm(env, fleetId);
  const row = await db
    .insertInto('inspections')
    .values({
      fleet_id: fleetId,
      form_id: formId,
      form_name: FORM,
      builtin: null,
      object_type: 'u',
      object_id: unit.id,
      mileage: null,
      engine_hours: null,
      note: '',
      items: JSON.stringify(dvirItems().slice(0, 1)),
      results: JSON.stringify([{ i: 0, ok: false, sev: 'dangerous', v: null, tx: null, img: null }]),
      signature_id: null,
      submitted_at: 1000,
      submitter_id: null,
      defects: 1,
      ack_by: null,
      ack_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const defect = await db
    .insertInto('inspection_defects')
    .values({
      fleet_id: fleetId,
      inspection_id: row.id,
      item: 0,
      severity: 'dangerous',
      issue_id: null,
      cert: null,
      cert_note: '',
      cert_by: null,
      cert_at: null,
      cert_signature_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, defectId: defect.id };
}

/** Removes the inspections and forms the cells made. */
async function restore({ t }: CaseEnv) {
  const db = t.server.ctx.db.kysely;
  await db.deleteFrom('attachments').where('owner_type', '=', 'inspection').execute();
  await db.deleteFrom('inspection_defects').execute();
  await db.deleteFrom('inspections').execute();
  await db.deleteFrom('inspection_forms').where('builtin', 'is', null).execute();
}

const MANAGER_OK_ELSE_UNKNOWN = (ok: readonly MatrixUser[]) => ({
  ...outcomes(ok),
  ...Object.fromEntries(ok.map((u) => [u, unknown])),
});

export const INSPECTION_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/inspection-forms',
    build: ({ fx }) => ({ method: 'GET', url: forms(fx.fleetId) }),
    expect: outcomes(SUBMITTERS),
  },
  {
    route: 'GET /api/fleets/:fid/inspection-forms/:id',
    async build(env) {
      return { method: 'GET', url: `${forms(env.fx.fleetId)}/${await seedForm(env, env.fx.fleetId)}` };
    },
    expect: outcomes(SUBMITTERS),
  },
  {
    route: 'GET /api/fleets/:fid/inspection-forms/:id',
    label: 'a form of another fleet',
    async build(env) {
      return { method: 'GET', url: `${forms(env.fx.fleetId)}/${await seedForm(env, env.fx.otherFleetId)}` };
    },
    expect: MANAGER_OK_ELSE_UNKNOWN(SUBMITTERS),
  },
  {
    route: 'POST /api/fleets/:fid/inspection-forms',
    build: ({ fx }) => ({
      method: 'POST',
      url: forms(fx.fleetId),
      body: { n: 'Cell form', items: [{ k: 'pf', l: 'Brakes' }] },
    }),
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/inspection-forms/:id',
    async build(env) {
      const id = await seedForm(env, env.fx.fleetId);
      return { method: 'PUT', url: `${forms(env.fx.fleetId)}/${id}`, body: { n: FORM } };
    },
    expect: outcomes(MANAGERS),
  },
  {
    route: 'PUT /api/fleets/:fid/inspection-forms/:id',
    label: 'a form of another fleet',
    async build(env) {
      const id = await seedForm(env, env.fx.otherFleetId);
      return { method: 'PUT', url: `${forms(env.fx.fleetId)}/${id}`, body: { n: FORM } };
    },
    expect: MANAGER_OK_ELSE_UNKNOWN(MANAGERS),
  },
  {
    route: 'DELETE /api/fleets/:fid/inspection-forms/:id',
    async build(env) {
      const id = await seedForm(env, env.fx.fleetId);
      return { method: 'DELETE', url: `${forms(env.fx.fleetId)}/${id}` };
    },
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/inspections',
    build: ({ fx }) => ({ method: 'GET', url: insp(fx.fleetId) }),
    expect: outcomes(SUBMITTERS),
  },
  {
    route: 'GET /api/fleets/:fid/inspections/:id',
    async build(env) {
      const { id } = await seedInspection(env, env.fx.fleetId);
      return { method: 'GET', url: `${insp(env.fx.fleetId)}/${id}` };
    },
    expect: outcomes(SUBMITTERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/inspections/:id',
    label: 'an inspection of another fleet',
    async build(env) {
      const { id } = await seedInspection(env, env.fx.otherFleetId);
      return { method: 'GET', url: `${insp(env.fx.fleetId)}/${id}` };
    },
    expect: MANAGER_OK_ELSE_UNKNOWN(SUBMITTERS),
    restore,
  },
  {
    route: 'POST /api/fleets/:fid/inspections',
    async build(env) {
      // Earlier cells' reports with defects would ask for an acknowledgement first.
      await restore(env);
      return {
        method: 'POST',
        url: insp(env.fx.fleetId),
        body: {
          fm: await seedForm(env, env.fx.fleetId),
          ot: 'u',
          oi: env.fx.unit.id,
          res: [{ i: 0, ok: true }],
          sig: PNG,
        },
      };
    },
    expect: outcomes(SUBMITTERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/inspections/:id',
    label: 'acknowledge',
    async build(env) {
      const { id } = await seedInspection(env, env.fx.fleetId);
      return { method: 'PUT', url: `${insp(env.fx.fleetId)}/${id}`, body: { ack: true } };
    },
    expect: outcomes(SUBMITTERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/inspections/:id',
    label: 'certify a defect',
    need: 'inspection.manage',
    async build(env) {
      const { id, defectId } = await seedInspection(env, env.fx.fleetId);
      return {
        method: 'PUT',
        url: `${insp(env.fx.fleetId)}/${id}`,
        body: { cert: [{ id: defectId, c: 'repaired', sig: PNG }] },
      };
    },
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'PUT /api/fleets/:fid/inspections/:id',
    label: 'an inspection of another fleet',
    async build(env) {
      const { id } = await seedInspection(env, env.fx.otherFleetId);
      return { method: 'PUT', url: `${insp(env.fx.fleetId)}/${id}`, body: { ack: true } };
    },
    expect: MANAGER_OK_ELSE_UNKNOWN(SUBMITTERS),
    restore,
  },
  {
    route: 'DELETE /api/fleets/:fid/inspections/:id',
    async build(env) {
      const { id } = await seedInspection(env, env.fx.fleetId);
      return { method: 'DELETE', url: `${insp(env.fx.fleetId)}/${id}` };
    },
    expect: outcomes(MANAGERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/inspections/:id/attachments/:aid',
    label: 'an image of another fleet’s inspection',
    async build(env) {
      const { id } = await seedInspection(env, env.fx.otherFleetId);
      return { method: 'GET', url: `${insp(env.fx.fleetId)}/${id}/attachments/1` };
    },
    expect: MANAGER_OK_ELSE_UNKNOWN(SUBMITTERS),
    restore,
  },
  {
    route: 'GET /api/fleets/:fid/inspection-settings',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/inspection-settings` }),
    expect: outcomes(SUBMITTERS),
  },
  {
    route: 'PUT /api/fleets/:fid/inspection-settings',
    build: ({ fx }) => ({
      method: 'PUT',
      url: `/api/fleets/${fx.fleetId}/inspection-settings`,
      body: { rm: 12 },
    }),
    expect: outcomes(FLEET_ADMINS),
  },
];
