import type { FastifyInstance } from 'fastify';
import { auditModule } from './audit';
import { authModule } from './auth';
import { systemModule } from './system';
import { weekModule } from './week';

/**
 * The API's feature modules, registered in this order after the platform plugins.
 * Each module lives in `modules/<area>/` with its routes, schemas and presenters.
 */
export const apiModules: Array<(app: FastifyInstance) => Promise<void>> = [
  authModule,
  systemModule,
  auditModule,
  weekModule,
];
