/**
 * A loopback TCP proxy in front of the test PostgreSQL server, so a test can take "the server" away from one
 * store (every connection cut, new ones refused) and give it back, without touching the server other tests use.
 */
import net from 'node:net';

/** A proxy on an ephemeral loopback port. */
export class TcpProxy {
  readonly #target: { readonly host: string; readonly port: number };
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | undefined;
  #port = 0;

  constructor(target: { readonly host: string; readonly port: number }) {
    this.#target = target;
  }

  /** The port it listens on (fixed after the first start). */
  get port(): number {
    return this.#port;
  }

  /** Starts listening (on the same port as before after a stop). */
  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.#target.port, this.#target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#port = (server.address() as net.AddressInfo).port;
  }

  /** Cuts every connection and stops accepting new ones. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
