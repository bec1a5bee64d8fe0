import { z } from 'zod';
import { defineEndpoint } from '../endpoint';

/** An OpenAPI 3.1 document: its version and paths are all a client relies on here. */
export const openApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});
export type OpenApiDocument = z.infer<typeof openApiDocument>;

export const openapiApi = {
  describe: defineEndpoint({
    method: 'GET',
    path: '/api/openapi.json',
    auth: 'public',
    response: openApiDocument,
    summary: "The API's description (OpenAPI 3.1), generated from the endpoint objects",
  }),
};
