import type { FastifyInstance } from 'fastify';

/**
 * The live co-editing service (y-websocket protocol at /api/collab/:docName) mounts here.
 * Until it is built, a process started with SERVICES containing `collab` serves no collab
 * route, and says so at start.
 */
export async function collabPlugin(app: FastifyInstance) {
  app.log.info('collab service: no documents are served yet');
}
