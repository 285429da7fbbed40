import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now: `preferred` when it is free (so runs look alike), else one the
 * system picks. The caller binds it a moment later; another process taking it first is a race tests and
 * benches accept.
 */
export async function freePort(preferred = 0): Promise<number> {
  if (preferred !== 0) {
    const port = await probe(preferred).catch(() => null);
    if (port !== null) return port;
  }
  return probe(0);
}

/** Listens on `port` and closes again, answering the port that was bound. */
function probe(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === "object" && address !== null) resolve(address.port);
        else reject(new Error("could not find a free port"));
      });
    });
  });
}
