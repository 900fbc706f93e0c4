import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The Fastify instance with the zod type provider, as every route module uses it. */
export function zApp(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}

/** Path id: a positive integer (spec §5 integer rule), read from text. */
export const pathId = z.coerce.number().int().positive().max(2147483647);
/** An id inside a JSON body: a number, never text. */
export const id = z.number().int().positive().max(2147483647);
export const idParams = z.object({ id: pathId });
export const fleetParams = z.object({ fid: pathId });
export const fleetItemParams = z.object({ fid: pathId, id: pathId });

/** The error body of DESIGN §5, for the API description. */
export const errorBody = z.object({ error: z.number(), reason: z.string(), details: z.unknown().optional() });
