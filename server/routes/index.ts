import type { FastifyInstance } from 'fastify';
import authRoutes from './auth';
import usersRoutes from './users';
import landingsRoutes from './landings';
import leadsRoutes from './leads';
import leadExportsRoutes from './lead-exports';
import importsRoutes from './imports';
import intakeRoutes from './intake';
import leadStatsRoutes from './lead-stats';
import passwordsRoutes from './passwords';
import exportsRoutes from './exports';
import taboolaRoutes from './taboola';
import customersRoutes from './customers';
import rulesRoutes from './rules';
import reportsRoutes from './reports';

/** Every resource's routes, one file each; app.ts registers them in this order. */
export const routes: Array<(app: FastifyInstance) => Promise<void>> = [authRoutes, usersRoutes, landingsRoutes, leadsRoutes, leadExportsRoutes, importsRoutes, intakeRoutes, leadStatsRoutes, customersRoutes, rulesRoutes, reportsRoutes, passwordsRoutes, exportsRoutes, taboolaRoutes];
