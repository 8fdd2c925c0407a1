import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** Both ends of one proxied connection and the bytes held back while the link is stalled. */
interface Link {
  client: Socket;
  upstream: Socket;
  toUpstream: Buffer[];
  toClient: Buffer[];
}

/**
 * A TCP proxy on 127.0.0.1 in the test process, so a test can cut one process off from a server
 * (its PostgreSQL) without root: `reset()` ends every connection and refuses new ones, as a
 * crashed or restarted peer would; `stall()` holds every byte both ways, as a network that drops
 * packets until it heals does (TCP delivers them once it does); `heal()` lets traffic through again.
 */
export class TcpProxy {
  private readonly links = new Set<Link>();
  private mode: 'open' | 'reset' | 'stall' = 'open';

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    server.on('connection', (client) => proxy.accept(client, targetHost, targetPort));
    return proxy;
  }

  /** Connections open now. */
  get connections(): number {
    return this.links.size;
  }

  private accept(client: Socket, targetHost: string, targetPort: number): void {
    if (this.mode === 'reset') {
      client.destroy();
      return;
    }
    const link: Link = { client, upstream: connect(targetPort, targetHost), toUpstream: [], toClient: [] };
    this.links.add(link);
    const drop = (): void => {
      this.links.delete(link);
      link.client.destroy();
      link.upstream.destroy();
    };
    // One side's end ends the other once what was written to it is sent; an error drops both.
    for (const [socket, other] of [
      [link.client, link.upstream],
      [link.upstream, link.client],
    ]) {
      socket.on('error', drop);
      socket.on('close', () => {
        this.links.delete(link);
        other.end();
      });
    }
    link.client.on('data', (chunk: Buffer) => (this.mode === 'stall' ? link.toUpstream.push(chunk) : link.upstream.write(chunk)));
    link.upstream.on('data', (chunk: Buffer) => (this.mode === 'stall' ? link.toClient.push(chunk) : link.client.write(chunk)));
  }

  /** Ends every connection at once and refuses new ones until `heal()`. */
  reset(): void {
    this.mode = 'reset';
    for (const link of [...this.links]) {
      link.client.destroy();
      link.upstream.destroy();
    }
  }

  /** Holds every byte of every connection, old and new, until `heal()`. */
  stall(): void {
    this.mode = 'stall';
  }

  /** Passes traffic again, first the bytes held back, in order. */
  heal(): void {
    this.mode = 'open';
    for (const link of this.links) {
      for (const chunk of link.toUpstream.splice(0)) link.upstream.write(chunk);
      for (const chunk of link.toClient.splice(0)) link.client.write(chunk);
    }
  }

  async close(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
