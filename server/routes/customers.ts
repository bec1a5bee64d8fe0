import type { FastifyInstance } from 'fastify';
import { customersApi } from '../../src/api/customers/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { createCustomer, customerNotFound, listCustomers, updateCustomer } from '../services/lives/customers';
import { pathId } from '../route-params';
import { customerStatement } from '../services/sales/statement';
import { statementFile } from '../services/sales/statement-file';

export default async function customersRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, customersApi.list, async () => ({ data: await listCustomers(db) }));

  route(app, customersApi.create, async (req, reply) => {
    const customer = await createCustomer(db, currentUser(req).id, req.body);
    reply.status(201);
    return { data: customer, message: 'Client ajouté' };
  });

  route(app, customersApi.update, async (req) => {
    const id = pathId(req.params.id, customerNotFound);
    const customer = await updateCustomer(db, currentUser(req).id, id, req.body);
    return { data: customer, message: 'Client modifié' };
  });

  route(app, customersApi.statement, async (req) => ({
    data: await customerStatement(db, pathId(req.params.id, customerNotFound), req.query.month),
  }));

  route(app, customersApi.statementFile, async (req, reply) => {
    const file = await statementFile(db, currentUser(req).id, pathId(req.params.id, customerNotFound), req.query.month, req.query.format);
    return reply.headers(file.headers).send(file.body);
  });
}
