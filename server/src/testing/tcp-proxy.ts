import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in the test process, in front of a server the test must not stop (the machine's
 * PostgreSQL): the test cuts it to make that server unreachable for the app behind it, and
 * restores it.
 */
export interface TcpProxy {
  /** The proxy's port on 127.0.0.1 (the same after a restore). */
  port: number;
  /**
   * Stops forwarding what clients send (their queries wait, unanswered); resolves once a client
   * has sent something while held, so that a query is known to be in flight.
   */
  hold(): Promise<void>;
  /** Destroys every open connection and stops listening: connecting is then refused. */
  cut(): Promise<void>;
  /** Listens again on the same port and forwards again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let holding = false;
  let onHeld: (() => void) | undefined;

  const accept = (client: Socket) => {
    const upstream = createConnection(target);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk) => {
      if (holding) {
        onHeld?.();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
  };

  let server: Server = createServer(accept);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const stop = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    return new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  };
  const port = await listen(0);

  return {
    port,
    hold() {
      holding = true;
      return new Promise<void>((resolve) => {
        onHeld = resolve;
      });
    },
    async cut() {
      holding = false;
      onHeld = undefined;
      await stop();
    },
    async restore() {
      server = createServer(accept);
      await listen(port);
    },
    close: stop,
  };
}
