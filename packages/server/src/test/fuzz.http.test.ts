import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetAccountTree } from '../auth/access.js';
import { hashPassword } from '../auth/secrets.js';
import { type Client, DEMO_PASSWORD, startTestServer, TEST_DB, type TestServer } from './harness.js';

/**
 * The route fuzzer (DESIGN §5: failures are `{error, reason, details?}`, never 500 for
 * the client's input, and a user never reads another fleet's data, whatever ids it sends): every operation of the server's own OpenAPI document,
 * called by a signed-in manager (and an administrator) of fleet A with generated path ids (their own
 * fleet's, fleet B's, junk), query strings and bodies (from the declared JSON schema, broken variants of
 * it, arbitrary JSON, text that is no JSON, bad multipart). Each reply must be below 500, an error reply
 * must be `{error, reason}`, and no reply may carry one of fleet B's marker strings.
 *
 * The fast part runs in `npm test` with a fixed seed; `npm run test:soak` sets FLEETKEEP_SOAK=1 for many
 * more runs. FLEETKEEP_FUZZ_SEED and FLEETKEEP_FUZZ_RUNS replay or widen a run; FLEETKEEP_FUZZ_DEBUG=1
 * writes each request's status and reply start to fuzz-<user>.txt in the temporary directory.
 */

const SOAK = process.env.FLEETKEEP_SOAK === '1';
const SEED = Number(process.env.FLEETKEEP_FUZZ_SEED ?? 1426);
const TIMEOUT_MS = SOAK ? 3 * 3600_000 : 600_000;
/** Generated requests per operation (for the administrator a third of it). */
const RUNS = Number(process.env.FLEETKEEP_FUZZ_RUNS ?? (SOAK ? 60 : 6));

/** Text only fleet B's data carries (lower case; replies are compared in lower case). */
const MARKERS = ['northwind', 'nora north', 'oscar outsider', 'zqx-fleet-b'];
const B = 'ZQX-FLEET-B';

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; required?: boolean; schema: Schema }[];
  json?: Schema;
  multipart: boolean;
}
interface Generated {
  url: string;
  body?: { contentType: string; payload: string };
  note: string;
}
interface Failure {
  op: string;
  request: string;
  status: number;
  why: string;
  reply: string;
}

const JUNK_IDS = [
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '2147483648',
  'null',
  '%00',
  '%2e%2e',
  "1'%20or%20'1'='1",
  '%F0%9F%98%80',
];
const JUNK_VALUES = [
  '',
  ' ',
  '-1',
  '1e309',
  'NaN',
  'true',
  '[]',
  '{}',
  '2025-02-30',
  '\u0000',
  'x'.repeat(300),
];

/** Sessions end in fuzzing (logout, a changed password): those operations go last. */
const SESSION_ENDING = /\/(logout|login|password|tokens|set_session_property|setup)\b/;

function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        json: content['application/json']?.schema,
        multipart: content['multipart/form-data'] !== undefined,
      });
    }
  }
  const rank = (o: Operation) =>
    SESSION_ENDING.test(o.path) ? 4 : o.method === 'GET' ? 0 : o.method === 'DELETE' ? 2 : 1;
  return ops.sort((a, b) => rank(a) - rank(b));
}

/** Values for one JSON schema (the subset zod's OpenAPI output uses), ids drawn from `ids`. */
function fromSchema(
  schema: Schema | undefined,
  ids: fc.Arbitrary<number>,
  depth = 0,
  key = '',
): fc.Arbitrary<unknown> {
  if (!schema || depth > 5) return fc.jsonValue({ maxDepth: 1 });
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s: Schema) => fromSchema(s, ids, depth + 1, key)));
  if (schema.allOf) return fromSchema(schema.allOf[0], ids, depth + 1, key);
  if (Array.isArray(schema.type)) {
    return fc.oneof(
      ...schema.type.map((type: string) => fromSchema({ ...schema, type }, ids, depth + 1, key)),
    );
  }
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min =
        schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? -1e9);
      const max =
        schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? 1e9);
      const range = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) });
      return /(^|_)id$|id$|^ids?$/i.test(key)
        ? fc.oneof(ids, range)
        : fc.oneof(range, fc.constantFrom(min, max));
    }
    case 'number': {
      const min = schema.minimum ?? -1e9;
      const max = schema.maximum ?? 1e9;
      return fc.oneof(
        fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) }),
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      );
    }
    case 'string': {
      if (schema.format === 'binary') return fc.string({ maxLength: 20 });
      if (schema.pattern) {
        try {
          return fc
            .stringMatching(new RegExp(schema.pattern))
            .filter((s) => s.length <= (schema.maxLength ?? 200) && s.length >= (schema.minLength ?? 0));
        } catch {
          // A pattern fast-check cannot generate from: plain strings.
        }
      }
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      return fc.string({
        minLength: Math.min(schema.minLength ?? 0, maxLength),
        maxLength,
        unit: 'grapheme',
      });
    }
    case 'array':
      return fc.array(fromSchema(schema.items, ids, depth + 1, key), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    default: {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const names = Object.keys(properties);
      if (names.length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const name of names) record[name] = fromSchema(properties[name], ids, depth + 1, name);
      return fc.record(record, {
        requiredKeys: (schema.required ?? []).filter((r: string) => names.includes(r)),
      });
    }
  }
}

/** A JSON body: valid by the schema, one field broken, an unknown field, arbitrary JSON, or no JSON. */
function bodyOf(schema: Schema, ids: fc.Arbitrary<number>): fc.Arbitrary<{ payload: string; note: string }> {
  const valid = fromSchema(schema, ids);
  const broken = fc
    .tuple(
      valid,
      fc.string({ maxLength: 12 }),
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...JUNK_VALUES)),
    )
    .map(([v, k, junk]) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return junk;
      const keys = Object.keys(v);
      const target = keys.length > 0 ? keys[k.length % keys.length]! : k;
      return { ...v, [keys.length > 0 && k.length % 2 === 0 ? target : k || 'x']: junk };
    });
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((v) => ({ payload: JSON.stringify(v), note: 'schema' })) },
    { weight: 3, arbitrary: broken.map((v) => ({ payload: JSON.stringify(v), note: 'broken' })) },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ payload: JSON.stringify(v), note: 'json' })),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => ({ payload: s, note: 'text' })) },
  );
}

/** The ids for path parameter `name`: of the kind the segment before it names, else any. */
function idsBefore(
  path: string,
  name: string,
  kinds: Map<string, fc.Arbitrary<number>>,
  ids: fc.Arbitrary<number>,
) {
  const segment = /([\w-]+)\/\{(\w+)\}/g;
  for (const m of path.matchAll(segment)) if (m[2] === name) return kinds.get(m[1]!) ?? ids;
  return ids;
}

function requestsOf(
  op: Operation,
  fleets: number[],
  ids: fc.Arbitrary<number>,
  kinds: Map<string, fc.Arbitrary<number>>,
  devices: string[],
): fc.Arbitrary<Generated> {
  const junkId = fc.constantFrom(...JUNK_IDS);
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of pathParams) {
    const isFleet = p.name === 'fid' || (p.name === 'id' && op.path.startsWith('/api/fleets/{id}'));
    const fromEnum = p.schema?.enum ? fc.constantFrom(...(p.schema.enum as string[])) : undefined;
    pathArbs[p.name] = isFleet
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant(String(fleets[0])) },
          { weight: 2, arbitrary: fc.constant(String(fleets[1])) },
          { weight: 1, arbitrary: junkId },
        )
      : fromEnum
        ? fc.oneof({ weight: 5, arbitrary: fromEnum }, { weight: 1, arbitrary: junkId })
        : fc.oneof(
            { weight: 5, arbitrary: idsBefore(op.path, p.name, kinds, ids).map(String) },
            { weight: 1, arbitrary: junkId },
          );
  }
  const queryArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of queryParams) {
    const device =
      /^(id|deviceid)$/.test(p.name) && op.path.startsWith('/api/ingest')
        ? fc.constantFrom(...devices)
        : undefined;
    queryArbs[p.name] = fc.oneof(
      {
        weight: 4,
        arbitrary:
          device ??
          fromSchema(p.schema, ids, 0, p.name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
      },
      { weight: 1, arbitrary: fc.constantFrom(...JUNK_VALUES) },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    );
  }
  const required = queryParams.filter((p) => p.required).map((p) => p.name);
  const query = fc.record(queryArbs, { requiredKeys: required });
  const extra = fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 12 })), {
    freq: 4,
  });
  const noBody = fc.constant<{ contentType: string; payload: string; note: string } | undefined>(undefined);
  const body: fc.Arbitrary<{ contentType: string; payload: string; note: string } | undefined> = op.json
    ? fc.oneof(
        {
          weight: 8,
          arbitrary: bodyOf(op.json, ids).map((b) => ({ ...b, contentType: 'application/json' })),
        },
        {
          weight: op.multipart ? 3 : 0,
          arbitrary: fc
            .tuple(fc.constantFrom('', '; boundary=x', '; boundary=----fk'), fc.string({ maxLength: 60 }))
            .map(([boundary, text]) => ({
              contentType: `multipart/form-data${boundary}`,
              payload: text,
              note: 'multipart',
            })),
        },
      )
    : noBody;
  return fc.record({ path: fc.record(pathArbs), query, extra, body }).map(({ path, query, extra, body }) => {
    const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => path[name] ?? '1');
    const search = new URLSearchParams(query as Record<string, string>);
    if (extra) search.append(extra[0], extra[1]);
    const qs = search.toString();
    return {
      url: qs ? `${url}?${qs}` : url,
      body: body && { contentType: body.contentType, payload: body.payload },
      note: body?.note ?? 'none',
    };
  });
}

/**
 * A route outside /api and outside the OpenAPI document, for the test that the checks can fail: junk ids
 * answer 500, small ids a 400 without `reason`, other ids fleet B's name.
 */
const PLANTED: Operation = {
  method: 'GET',
  path: '/fuzz-planted/{id}',
  params: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
  multipart: false,
};
function plantFaults(app: FastifyInstance) {
  app.get('/fuzz-planted/:id', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isInteger(id) || id <= 0) return reply.status(500).send({ error: 0, reason: 'planted' });
    if (id < 50) return reply.status(400).send({ error: 4 });
    return { name: 'Northwind Van 1' };
  });
}

describe(`route fuzzer on ${TEST_DB}`, () => {
  let t: TestServer;
  let ops: Operation[];
  let fleets: number[];
  let ids: fc.Arbitrary<number>;
  /** Ids of one kind (by the path segment before the parameter): fleet A's, fleet B's, others. */
  const kinds = new Map<string, fc.Arbitrary<number>>();
  let devices: string[];

  beforeAll(async () => {
    t = await startTestServer({ beforeListen: plantFaults });
    const db = t.server.ctx.db.kysely;
    const { fleetId: a, otherFleetId: b } = t.demo;
    fleets = [a, b];
    // Both fleets get data of every kind; fleet B's is named with its marker.
    const seedFleet = async (client: Client, fid: number, name: string) => {
      const unit = (
        await db.selectFrom('units').select('id').where('fleet_id', '=', fid).executeTakeFirstOrThrow()
      ).id;
      for (const [path, body] of [
        ['line_items', { n: `${name} line item`, t: 1, c: '12.5' }],
        ['intervals', { n: `${name} interval`, de: 1, dd: 30, du: 'd' }],
        ['services', { n: `${name} service`, t: 'u', uid: unit, f: 1 }],
        ['fuel-fillings', { uid: unit, volume: '40', price: '1.5', station: `${name} station` }],
      ] as const) {
        const res = await client.post(`/api/fleets/${fid}/${path}`, body);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
        if (path === 'services' || path === 'fuel-fillings') {
          const form = new FormData();
          form.append('file', new Blob([`${name} file`], { type: 'text/plain' }), `${name}.txt`);
          const up = await fetch(`${t.url}/api/fleets/${fid}/${path}/${res.body.id}/attachments`, {
            method: 'POST',
            headers: { authorization: `SSID ${client.ssid}` },
            body: form,
          });
          expect(up.status).toBe(200);
        }
      }
    };
    await seedFleet(await t.login('manager'), a, 'Own fleet');
    await seedFleet(await t.login('outsider'), b, B);
    // Ids by the path segment that names their kind: each fleet's own, for "ids of other fleets".
    const tables = {
      units: 'units',
      drivers: 'drivers',
      trailers: 'trailers',
      services: 'services',
      intervals: 'intervals',
      line_items: 'line_items',
      'fuel-fillings': 'fuel_fillings',
    } as const;
    const all: number[] = [a, b, ...Object.values(t.demo.users)];
    const generic = () =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...new Set(all)) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }) },
      );
    const byFleet = async (table: (typeof tables)[keyof typeof tables], fid: number) =>
      (await db.selectFrom(table).select('id').where('fleet_id', '=', fid).execute()).map((r) => r.id);
    const pool = (own: number[], other: number[]) => {
      all.push(...own, ...other);
      return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...own) },
        { weight: 2, arbitrary: fc.constantFrom(...other) },
        { weight: 1, arbitrary: generic() },
      );
    };
    for (const [segment, table] of Object.entries(tables)) {
      kinds.set(segment, pool(await byFleet(table, a), await byFleet(table, b)));
    }
    const attachments = async (fid: number) =>
      (
        await db
          .selectFrom('attachments')
          .select('id')
          .where((eb) =>
            eb.or([
              eb('owner_id', 'in', eb.selectFrom('services').select('id').where('fleet_id', '=', fid)),
              eb('owner_id', 'in', eb.selectFrom('fuel_fillings').select('id').where('fleet_id', '=', fid)),
            ]),
          )
          .execute()
      ).map((r) => r.id);
    kinds.set('attachments', pool(await attachments(a), await attachments(b)));
    ids = generic();
    devices = ['demo-001', 'northwind-1', 'unknown-device', ''];
    ops = operationsOf((await t.anon.get('/api/openapi.json')).body);
  });
  afterAll(() => t.close());

  /**
   * Signs `user` in again after a fuzzed request ended the session. Fuzzed requests may also have changed
   * the password (an administrator may set another user's) or tripped the login throttle: both undone.
   */
  async function signInAgain(user: string): Promise<Client> {
    const db = t.server.ctx.db.kysely;
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(DEMO_PASSWORD), active: 1 })
      .where('name', '=', user)
      .execute();
    await db.deleteFrom('login_failures').execute();
    return t.login(user);
  }

  /**
   * Snapshot of what lets `user` act (its login name and password, role, fleet rights, the accounts'
   * state); the returned function puts it back after each write, so that one fuzzed request (renaming
   * the user, taking its own rights, deactivating its account) does not turn the rest into 401s and 403s.
   */
  async function keepAble(user: string) {
    const db = t.server.ctx.db.kysely;
    const me = await db.selectFrom('users').selectAll().where('name', '=', user).executeTakeFirstOrThrow();
    const rights = await db.selectFrom('fleet_users').selectAll().where('user_id', '=', me.id).execute();
    const accounts = await db.selectFrom('accounts').select(['id', 'active', 'parent_id']).execute();
    return async () => {
      // One transaction: one commit per fuzzed write, not six.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({
            name: me.name,
            password_hash: me.password_hash,
            active: me.active,
            admin: me.admin,
            su: me.su,
            account_id: me.account_id,
          })
          .where('id', '=', me.id)
          .execute();
        await trx.deleteFrom('fleet_users').where('user_id', '=', me.id).execute();
        if (rights.length > 0) await trx.insertInto('fleet_users').values(rights).execute();
        for (const a of accounts) {
          await trx
            .updateTable('accounts')
            .set({ active: a.active, parent_id: a.parent_id })
            .where('id', '=', a.id)
            .execute();
        }
      });
      forgetAccountTree(t.server.ctx);
    };
  }

  /** Sends every generated request of every operation as `user`; returns the failures and the count. */
  async function fuzz(user: string, runs: number, seed: number, list = ops) {
    const keep = await keepAble(user);
    let client: Client = await signInAgain(user);
    const failures: Failure[] = [];
    let sent = 0;
    /** Operations that answered 2xx at least once: how much of the fuzzing got past validation. */
    const succeeded = new Set<string>();
    const statuses: string[] = [];
    for (const [i, op] of list.entries()) {
      const samples = fc.sample(requestsOf(op, fleets, ids, kinds, devices), {
        seed: seed + i,
        numRuns: runs,
      });
      for (const req of samples) {
        const headers: Record<string, string> = {};
        if (client.ssid) headers.authorization = `SSID ${client.ssid}`;
        if (req.body) headers['content-type'] = req.body.contentType;
        const res = await fetch(t.url + req.url, { method: op.method, headers, body: req.body?.payload });
        const text = await res.text();
        sent++;
        if (res.status < 300) succeeded.add(`${op.method} ${op.path}`);
        if (process.env.FLEETKEEP_FUZZ_DEBUG)
          statuses.push(`${op.method} ${op.path} ${res.status} ${text.slice(0, 160)}`);
        const fail = (why: string) =>
          failures.push({
            op: `${op.method} ${op.path}`,
            request: `${op.method} ${req.url} [${req.note}] ${req.body?.payload.slice(0, 300) ?? ''}`,
            status: res.status,
            why,
            reply: text.slice(0, 300),
          });
        if (res.status >= 500) fail('status >= 500');
        if (res.status >= 400) {
          let parsed: any;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (typeof parsed?.error !== 'number' || typeof parsed?.reason !== 'string')
            fail('error without {error, reason}');
        }
        const lower = text.toLowerCase();
        const leaked = MARKERS.find((m) => lower.includes(m));
        if (leaked) fail(`reply carries fleet B's "${leaked}"`);
        if (op.method !== 'GET') await keep();
        // A fuzzed logout or password change may have ended the session: sign in again.
        if (res.status === 401) client = await signInAgain(user);
      }
    }
    if (process.env.FLEETKEEP_FUZZ_DEBUG) {
      fs.writeFileSync(path.join(os.tmpdir(), `fuzz-${user}.txt`), statuses.join('\n'));
    }
    return { failures, sent, succeeded: succeeded.size };
  }

  function summary(failures: Failure[]): string {
    const byOp = new Map<string, Failure>();
    for (const f of failures) if (!byOp.has(`${f.op} ${f.why}`)) byOp.set(`${f.op} ${f.why}`, f);
    return [...byOp.values()]
      .map((f) => `${f.op}: ${f.why} (${f.status})\n  ${f.request}\n  -> ${f.reply}`)
      .join('\n');
  }

  it('can fail: a planted route that answers 500, a bare error and fleet B data is caught on each', async () => {
    const { failures, sent } = await fuzz('manager', 40, SEED, [PLANTED]);
    expect(sent).toBe(40);
    expect(new Set(failures.map((f) => f.why))).toEqual(
      new Set(['status >= 500', 'error without {error, reason}', `reply carries fleet B's "northwind"`]),
    );
  });

  it(
    'every operation, as a manager of fleet A: never 500, errors as {error, reason}, nothing of fleet B',
    async () => {
      expect(ops.length).toBeGreaterThan(100);
      const started = performance.now();
      const { failures, sent, succeeded } = await fuzz('manager', RUNS, SEED);
      console.log(
        `fuzz ${TEST_DB} manager: ${sent} requests over ${ops.length} operations (${succeeded} answered 2xx at least once), ${failures.length} failures, ${Math.round(performance.now() - started)} ms (seed ${SEED})`,
      );
      expect(sent).toBe(ops.length * RUNS);
      expect(summary(failures)).toBe('');
    },
    TIMEOUT_MS,
  );

  it(
    'every operation, as the administrator of fleet A account',
    async () => {
      const started = performance.now();
      const { failures, sent, succeeded } = await fuzz(
        'admin',
        Math.max(2, Math.round(RUNS / 3)),
        SEED + 10_000,
      );
      console.log(
        `fuzz ${TEST_DB} admin: ${sent} requests (${succeeded} operations answered 2xx), ${failures.length} failures, ${Math.round(performance.now() - started)} ms`,
      );
      expect(summary(failures)).toBe('');
    },
    TIMEOUT_MS,
  );
});
