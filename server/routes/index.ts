import type { FastifyInstance } from 'fastify';
import authRoutes from './auth';
import usersRoutes from './users';

/** Every resource's routes, one file each; app.ts registers them in this order. */
export const routes: Array<(app: FastifyInstance) => Promise<void>> = [authRoutes, usersRoutes];
