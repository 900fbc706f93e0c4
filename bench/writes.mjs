// Writes under concurrent load (DESIGN §9 "API reads and writes under concurrent load"):
// service creation and service update through the HTTP API, each at BENCH_CONNECTIONS connections (10)
// as the manager, while READ_CONNECTIONS more connections read the demo fleet's units list and one
// service the whole time. Throughput and p50/p99 of the writes, against the ping baseline of the same
// run; the reads' own figures during the writes are kept beside them (`reads_during`).
//
// Creation: Due one-off services spread over the demo fleet's units, each with a name of its own. Update:
// each connection renames a service of its own (created first), so that the writes do not wait on each
// other's rows beyond what the database itself serialises. Every service written is checked afterwards.
import { BenchError, load, login, probe, requireSuccess } from './lib.mjs';

/** Connections reading while the writes run. */
const READ_CONNECTIONS = 4;

function readRequests(api) {
  return [
    { method: 'GET', path: `${api.path}/units` },
    { method: 'GET', path: `${api.path}/services/${api.readService}` },
  ];
}

/** Runs the writes and the reads side by side over the same warm-up and duration. */
async function underReads(ctx, api, writeOpts) {
  const headers = { authorization: api.authorization, 'content-type': 'application/json' };
  const [writes, reads] = await Promise.all([
    load(ctx.url, { headers, ...writeOpts }),
    load(ctx.url, {
      headers,
      connections: READ_CONNECTIONS,
      requests: readRequests(api),
    }),
  ]);
  requireSuccess(reads, 0.01, 'the reads beside the writes');
  writes.reads_during = {
    connections: READ_CONNECTIONS,
    requests_per_sec: reads.requests_per_sec,
    latency_ms: reads.latency_ms,
  };
  writes.write_connections = ctx.connections;
  return requireSuccess(writes);
}

async function fleetApi(ctx) {
  const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
  const path = `/api/fleets/${fid}`;
  const headers = { authorization, 'content-type': 'application/json' };
  const { units } = await probe(`${ctx.url}${path}/units`, { headers });
  if (!units?.length) throw new BenchError('the demo fleet has no unit');
  const create = (uid, n) =>
    probe(`${ctx.url}${path}/services`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ t: 'u', uid, f: 1, n }),
    });
  const readService = (await create(units[0].id, 'Bench write: read beside the writes')).id;
  return { path, authorization, headers, units: units.map((u) => u.id), create, readService };
}

export const serviceCreate = {
  id: 'writes_create',
  title: 'POST /api/fleets/{fid}/services (create) under reads',
  async run(ctx) {
    const api = await fleetApi(ctx);
    let n = 0;
    const names = [];
    const result = await underReads(ctx, api, {
      method: 'POST',
      path: `${api.path}/services`,
      setupClient(client) {
        client.setRequests([
          {
            method: 'POST',
            setupRequest(req) {
              const k = n++;
              const uid = api.units[k % api.units.length];
              // A sample of the names, to find their rows afterwards.
              if (k % 100 === 0) names.push({ uid, n: `Bench write create ${k}` });
              req.body = JSON.stringify({ t: 'u', uid, f: 1, n: `Bench write create ${k}` });
              return req;
            },
          },
        ]);
      },
    });
    await checkCreated(ctx, api, names.slice(0, 5));
    return result;
  },
};

/** The sampled creations are rows of their unit's open services. */
async function checkCreated(ctx, api, sample) {
  for (const s of sample) {
    const { services } = await probe(`${ctx.url}${api.path}/services?object_type=u&object_id=${s.uid}`, {
      headers: { authorization: api.authorization },
    });
    if (!services?.some((row) => row.n === s.n)) throw new BenchError(`created service "${s.n}" not found`);
  }
}

export const serviceUpdate = {
  id: 'writes_update',
  title: 'PUT /api/fleets/{fid}/services/{id} (update) under reads',
  async run(ctx) {
    const api = await fleetApi(ctx);
    const own = [];
    for (let c = 0; c < ctx.connections; c++)
      own.push((await api.create(api.units[c % api.units.length], `Bench write update ${c}`)).id);
    let nextClient = 0;
    let n = 0;
    const result = await underReads(ctx, api, {
      method: 'PUT',
      setupClient(client) {
        const c = nextClient++ % own.length;
        client.setRequests([
          {
            method: 'PUT',
            path: `${api.path}/services/${own[c]}`,
            setupRequest(req) {
              req.body = JSON.stringify({ n: `Bench write update ${c}-${n++}`, description: `edit ${n}` });
              return req;
            },
          },
        ]);
      },
    });
    for (const [c, sid] of own.entries()) {
      const s = await probe(`${ctx.url}${api.path}/services/${sid}`, {
        headers: { authorization: api.authorization },
      });
      if (!s.n.startsWith(`Bench write update ${c}-`))
        throw new BenchError(`service ${sid} was not renamed (name "${s.n}")`);
    }
    return result;
  },
};

export const benchmarks = [serviceCreate, serviceUpdate];
