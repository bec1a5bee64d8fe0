import type { FastifyReply } from 'fastify';

/**
 * JSON the database wrote (a page of leads: services/leads/list.ts), typed by what it parses to.
 * It goes out as it came: parsed by the driver and serialized again, a page of 150 leads cost the
 * server more than everything else its request does.
 */
export type JsonText<T> = string & { readonly parsesTo?: T };

/** An answer whose `data` is JSON text: the rest is serialized around it. */
export function sendWithJsonData(reply: FastifyReply, answer: { data: JsonText<unknown> }): FastifyReply {
  const { data, ...rest } = answer;
  const tail = JSON.stringify(rest);
  return reply.type('application/json; charset=utf-8').send(`{"data":${data}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`);
}
