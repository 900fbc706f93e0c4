import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';
import { seedDemoInspections } from './inspections.js';

describe('demo inspections', () => {
  let t: TestServer;
  let viewer: Client;
  beforeAll(async () => {
    t = await startTestServer();
    await seedDemoInspections(t.server.ctx, t.demo);
    viewer = await t.login('viewer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has clean DVIRs and one with a failed brake, certified repaired, waiting for its acknowledgement', async () => {
    const list = (await viewer.get(`/api/fleets/${t.demo.fleetId}/inspections`)).body.inspections;
    expect(list).toHaveLength(2);
    const failed = list.find((i: any) => i.nd > 0);
    expect(failed).toMatchObject({ bi: 'dvir', nd: 1, ws: 'dangerous', st: 'certified', ak: null });
    const full = (await viewer.get(`/api/fleets/${t.demo.fleetId}/inspections/${failed.id}`)).body;
    expect(full.defects[0]).toMatchObject({ i: 0, cert: 'repaired', cb: { nm: 'Mike Mechanic' } });
    const image = await fetch(
      `${t.url}/api/fleets/${t.demo.fleetId}/inspections/${failed.id}/attachments/${full.sig}`,
      {
        headers: { authorization: `SSID ${viewer.ssid}` },
      },
    );
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(list.every((i: any) => i.at < Math.floor(Date.now() / 1000) - 86_000)).toBe(true);
  });
});
