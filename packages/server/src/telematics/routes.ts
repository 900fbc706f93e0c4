import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';

/** Telematics ingestion routes (filled in by the telematics module). */
export const ingestRoutes =
  (_ctx: AppContext): FastifyPluginAsync =>
  async () => {};
