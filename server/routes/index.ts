import type { FastifyInstance } from 'fastify';
import authRoutes from './auth';
import customersRoutes from './customers';
import exportsRoutes from './exports';
import importsRoutes from './imports';
import healthRoutes from './health';
import intakeRoutes from './intake';
import landingsRoutes from './landings';
import leadExportsRoutes from './lead-exports';
import leadStatsRoutes from './lead-stats';
import leadsRoutes from './leads';
import passwordsRoutes from './passwords';
import productionsRoutes from './productions';
import reportsRoutes from './reports';
import rulesRoutes from './rules';
import taboolaRoutes from './taboola';
import usersRoutes from './users';

/** Every resource's routes, one file each, one per line in name order (parallel work merges line by line). */
export const routes: Array<(app: FastifyInstance) => Promise<void>> = [
  authRoutes,
  customersRoutes,
  exportsRoutes,
  healthRoutes,
  importsRoutes,
  intakeRoutes,
  landingsRoutes,
  leadExportsRoutes,
  leadStatsRoutes,
  leadsRoutes,
  passwordsRoutes,
  productionsRoutes,
  reportsRoutes,
  rulesRoutes,
  taboolaRoutes,
  usersRoutes,
];
