import type { FastifyInstance } from 'fastify';
import { customerCreateRequest, customerResponse, customersResponse, customerUpdateRequest } from '../../src/api/customers/contract';
import { currentUser } from '../context';
import { createCustomer, customerNotFound, listCustomers, updateCustomer } from '../services/lives/customers';
import { parse } from '../validate';
import { pathId } from '../route-params';

export default async function customersRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/customers', { config: { auth: 'admin', response: customersResponse } }, async () => ({ data: await listCustomers(db) }));

  app.post('/api/customers', { config: { auth: 'admin', response: customerResponse } }, async (req, reply) => {
    const customer = await createCustomer(db, currentUser(req).id, parse(customerCreateRequest, req.body ?? {}));
    return reply.status(201).send({ data: customer, message: 'Client ajouté' });
  });

  app.patch<{ Params: { id: string } }>('/api/customers/:id', { config: { auth: 'admin', response: customerResponse } }, async (req) => {
    const id = pathId(req.params.id, customerNotFound);
    const customer = await updateCustomer(db, currentUser(req).id, id, parse(customerUpdateRequest, req.body ?? {}));
    return { data: customer, message: 'Client modifié' };
  });
}
