import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy to a real server that a test can cut, stall and restore, to show what the service does
 * while a dependency is out of reach. Cut: every open connection is destroyed and new ones are closed at
 * once. Stalled: connections stay open (and new ones are accepted) but nothing passes either way, as
 * with a server that hangs.
 */
export class TcpProxy {
  private server: Server;
  private sockets = new Set<Socket>();
  private cut = false;
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => {
      if (this.cut) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
      if (this.stalled) for (const socket of [client, upstream]) socket.pause();
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    this.port = typeof address === "object" && address ? address.port : 0;
  }

  interrupt(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  /** Holds every byte, open connections and new ones alike, until `restore()`. */
  stall(): void {
    this.stalled = true;
    for (const socket of this.sockets) socket.pause();
  }

  restore(): void {
    this.cut = false;
    this.stalled = false;
    for (const socket of this.sockets) socket.resume();
  }

  async stop(): Promise<void> {
    this.interrupt();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A started proxy to the PostgreSQL server of `url`, and that URL pointed through it. */
export async function proxyTo(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const proxied = new URL(target);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(proxy.port);
  return { proxy, url: proxied.toString() };
}
