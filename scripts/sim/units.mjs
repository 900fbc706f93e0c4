// Units for the simulated devices (`npm run simulate -- --create-units`): a device is taken only when a
// unit has its identifier (DESIGN §3), so the simulator creates the missing ones through the API as a
// fleet administrator would: sign in (POST /api/login, GET /api/auth), list the fleet's units
// (GET /api/fleets/{id}/units) and create each missing one (POST /api/fleets/{id}/units).

async function call(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  let body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (res.status < 200 || res.status > 299) {
    const reason = body?.reason ?? body?.error ?? text.slice(0, 200);
    throw new Error(`${init.method ?? 'GET'} ${new URL(url).pathname} answered ${res.status}: ${reason}`);
  }
  return body;
}

/** Signs in and returns the authorization header and the user's current fleet. */
export async function signIn(baseUrl, username, password) {
  const { access_token } = await call(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const auth = await call(`${baseUrl}/api/auth?access_token=${encodeURIComponent(access_token)}`);
  return { authorization: `SSID ${auth.session}`, fid: auth.fid };
}

/**
 * Creates a unit in the fleet for every device identifier that no unit of the fleet has. `fleet`
 * defaults to the user's current fleet. Resolves to `{fleet, created, existing}`. A device identifier
 * taken by a unit of another fleet is refused by the server (409), and that error is thrown.
 */
export async function ensureUnits({ baseUrl, user, password, fleet, ids, concurrency = 8, onProgress }) {
  const { authorization, fid } = await signIn(baseUrl, user, password);
  const fleetId = fleet ?? fid;
  if (!fleetId) throw new Error(`${user} has no current fleet: pass --fleet <id>`);
  const headers = { authorization, 'content-type': 'application/json' };
  const { units } = await call(`${baseUrl}/api/fleets/${fleetId}/units`, { headers: { authorization } });
  const known = new Set(units.map((u) => u.uid));
  const missing = ids.filter((id) => !known.has(id));
  let next = 0;
  let created = 0;
  const worker = async () => {
    while (next < missing.length) {
      const uid = missing[next++];
      await call(`${baseUrl}/api/fleets/${fleetId}/units`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ nm: `Simulated ${uid}`, uid }),
      });
      created++;
      onProgress?.(created, missing.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, missing.length) }, worker));
  return { fleet: fleetId, created, existing: ids.length - missing.length };
}
