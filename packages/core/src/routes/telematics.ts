import {
  osmandBody,
  osmandQuery,
  osmandReply,
  telematicsBatchBody,
  telematicsBatchReply,
  traccarForwardBody,
  traccarForwardReply,
} from '../contracts/telematics.js';
import { route } from './route.js';

/**
 * Telematics ingestion under /api (DESIGN §3); the OsmAnd port serves the same service. The OsmAnd
 * readings are authenticated by the device identifier, the batch by a session with admin rights, a
 * Traccar server's forwarding by the device identifier and, when one is configured, its bearer token.
 */

const tags = ['telematics'];

export const telematicsRoutes = {
  osmandGet: route({
    method: 'GET',
    path: '/api/ingest/osmand',
    query: osmandQuery,
    reply: osmandReply,
    need: 'public',
    sessionless: true,
    summary: 'OsmAnd / Traccar Client reading (GET query); authenticated by the device identifier',
    tags,
  }),
  osmandPost: route({
    method: 'POST',
    path: '/api/ingest/osmand',
    query: osmandQuery,
    body: osmandBody,
    reply: osmandReply,
    need: 'public',
    sessionless: true,
    summary: 'OsmAnd / Traccar Client reading (form, or JSON body); authenticated by the device identifier',
    tags,
  }),
  traccar: route({
    method: 'POST',
    path: '/api/ingest/traccar',
    body: traccarForwardBody,
    reply: traccarForwardReply,
    need: 'public',
    sessionless: true,
    summary:
      'A Traccar server’s position forwarding (forward.type=json); the unit by device.uniqueId, `Authorization: Bearer` when TRACCAR_FORWARD_TOKEN is set',
    tags,
  }),
  batch: route({
    method: 'POST',
    path: '/api/ingest/batch',
    body: telematicsBatchBody,
    reply: telematicsBatchReply,
    need: 'telematics.ingest',
    summary: 'Readings of many units in order (admin rights on each unit’s fleet); per-row results',
    tags,
  }),
};
