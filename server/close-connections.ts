import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * The server's close ends each connection as soon as it carries no request. Node's own close ends
 * only the connections idle at that moment: it left open one on which no request had come yet
 * (clients open them ahead of need) and one whose request ended after the close began, until
 * their clients dropped them after Fastify's 72 s of keep-alive, and the close waited for them
 * (docs/performance.md).
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
      // A connection already closed has nothing left to end.
      if (!requests.has(socket)) return;
      requests.set(socket, requests.get(socket)! - 1);
      endIfIdle(socket);
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of requests.keys()) endIfIdle(socket);
  });
}
