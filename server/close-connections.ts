import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The server's close ends each connection as soon as it carries no request. Node's own close ends
 * only the connections idle at that moment: one on which no request had come yet (a client opens
 * them ahead of need) or whose request ended after it stayed open until its client dropped it,
 * over a minute later (Fastify keeps a connection 72 s), and the close waited for it: a restart
 * took that long, and so did every test server holding live streams (docs/performance.md).
 */
export function closeConnectionsWhenIdle(app: FastifyInstance) {
  const requests = new Map<Socket, number>();
  let closing = false;
  const endIfIdle = (socket: Socket) => {
    if (closing && !requests.get(socket)) socket.destroy();
  };
  app.server.on('connection', (socket: Socket) => {
    requests.set(socket, 0);
    socket.once('close', () => requests.delete(socket));
  });
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    requests.set(socket, (requests.get(socket) ?? 0) + 1);
    res.once('close', () => {
      if (requests.has(socket)) requests.set(socket, requests.get(socket)! - 1);
      endIfIdle(socket);
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of requests.keys()) endIfIdle(socket);
  });
}
