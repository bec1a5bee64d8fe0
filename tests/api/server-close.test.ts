// The server's close (a restart, SIGTERM) ends each connection once it carries no request, whatever
// its clients do: one opened ahead of need, one kept alive after its request, one whose request
// was still running when the close began (a live stream).
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw connection to the server, and a promise of its end (the server closing it). */
async function rawConnection(url: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  return { socket, closed: new Promise<void>((resolve) => socket.once('close', () => resolve())) };
}

const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`;

describe("the server's close", () => {
  it('ends a connection that sent nothing and one kept alive after its answer, and waits for none', async () => {
    server = await startServer();
    const silent = await rawConnection(server.url);
    const kept = await rawConnection(server.url);
    const answered = new Promise<string>((resolve) => kept.socket.once('data', (chunk) => resolve(chunk.toString())));
    kept.socket.write(request('/api/health'));
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);

    await server.ctx.jobs.stop();
    await server.app.close();
    await Promise.all([silent.closed, kept.closed]);
    expect([silent.socket.destroyed, kept.socket.destroyed]).toEqual([true, true]);
  });

  it('ends a live stream, then its connection', async () => {
    server = await startServer();
    const token = await server.login('admin@test.local', 'admin-password-1');
    const stream = await rawConnection(server.url);
    let received = '';
    stream.socket.on('data', (chunk) => (received += chunk.toString()));
    // A live stream is a request that lasts: the close ends it, then its connection.
    stream.socket.write(`GET /api/events HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await expect.poll(() => received).toMatch(/^HTTP\/1\.1 200/);

    await server.ctx.jobs.stop();
    await server.app.close();
    await stream.closed;
    expect(received).toMatch(/text\/event-stream/);
  });
});
