import type { FastifyInstance } from 'fastify';
import { openapiApi, type OpenApiDocument } from '../../src/api/openapi/endpoints';
import { route } from '../endpoint';
import { openApiDocument } from '../openapi';

/** GET /api/openapi.json: for integrators and landing-page developers, built once from the routes' endpoint objects. */
export default async function openapiRoutes(app: FastifyInstance) {
  let document: OpenApiDocument | undefined;
  route(app, openapiApi.describe, async () => {
    // The table is complete once every route is registered, before the first request.
    document ??= openApiDocument(
      app.apiRoutes.map((r) => r.endpoint),
      '1',
    );
    return document;
  });
}
