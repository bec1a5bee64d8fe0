import type { FastifyInstance } from 'fastify';
import authRoutes from './auth';
import usersRoutes from './users';
import landingsRoutes from './landings';
import leadsRoutes from './leads';
import leadExportsRoutes from './lead-exports';
import importsRoutes from './imports';
import intakeRoutes from './intake';
import leadStatsRoutes from './lead-stats';
import healthRoutes from './health';

/** Every resource's routes, one file each; app.ts registers them in this order. */
export const routes: Array<(app: FastifyInstance) => Promise<void>> = [authRoutes, usersRoutes, landingsRoutes, leadsRoutes, leadExportsRoutes, importsRoutes, intakeRoutes, leadStatsRoutes, healthRoutes];
