import { z } from 'zod';
import { pingReply } from '../contracts/platform.js';
import { route } from './route.js';

/** The server's own routes (DESIGN §5): liveness and the API description built from these descriptors. */

/** The OpenAPI document as @fastify/swagger generates it, kept as it is. */
const apiDescriptionReply = z.looseObject({}).describe('OpenAPI document');

export const metaRoutes = {
  ping: route({
    method: 'GET',
    path: '/api/ping',
    reply: pingReply,
    need: 'public',
    summary: 'Liveness',
    tags: ['meta'],
  }),
  apiDescription: route({
    method: 'GET',
    path: '/api/openapi.json',
    reply: apiDescriptionReply,
    need: 'public',
    summary: 'The API description (OpenAPI)',
    tags: ['meta'],
    hidden: true,
  }),
};
