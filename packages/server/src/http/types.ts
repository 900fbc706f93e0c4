import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The Fastify instance with the zod type provider, as every route module uses it. */
export function zApp(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}
