import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy to a real server that a test can cut, stall and restore, to show what the service does
 * while a dependency is out of reach. Cut: every open connection is destroyed and new ones are closed at
 * once. Stalled: connections stay open (and new ones are accepted) but nothing passes either way, as
 * with a server that hangs. Vanished: the server's machine lost every connection without closing any, as
 * a crashed host or container does: a connection waiting for an answer is closed, an idle one stays open
 * at the client and is reset by the first byte the client sends it, even once the server is back.
 */
export class TcpProxy {
  private server: Server;
  private sockets = new Set<Socket>();
  private cut = false;
  private stalled = false;
  /** Each client socket's pair, and whether it sent bytes its server has not yet answered. */
  private pairs = new Map<Socket, { upstream: Socket; awaiting: boolean }>();
  port = 0;
  /** Connections a vanished server answered with a reset (counted from the last `restore()`). */
  resets = 0;

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
      const pair = { upstream, awaiting: false };
      this.pairs.set(client, pair);
      client.on("close", () => this.pairs.delete(client));
      client.on("data", () => {
        pair.awaiting = true;
      });
      upstream.on("data", () => {
        pair.awaiting = false;
      });
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

  /**
   * The server's host loses its connections without a word: each upstream connection ends (the server
   * sees its client go), a client awaiting an answer is closed, and an idle client stays open, answered
   * with a reset at its next byte. New connections are refused until `restore()`.
   */
  vanish(): void {
    this.cut = true;
    for (const [client, { upstream, awaiting }] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      upstream.destroy();
      if (awaiting) {
        client.destroy();
        continue;
      }
      client.removeAllListeners("data");
      client.on("data", () => {
        this.resets++;
        client.resetAndDestroy();
      });
      client.resume(); // unpiping paused it
    }
  }

  /** Holds every byte, open connections and new ones alike, until `restore()`. */
  stall(): void {
    this.stalled = true;
    for (const socket of this.sockets) socket.pause();
  }

  restore(): void {
    this.resets = 0;
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
