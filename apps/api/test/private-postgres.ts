import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "@fleet/testing/free-port";

const run = promisify(execFile);

/** The newest PostgreSQL server binaries on this machine (Debian's layout), or null. */
export function postgresBinaries(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, "bin") : null;
}

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory, on a free port of 127.0.0.1, that the
 * test may kill (`-m immediate`: no checkpoint, every backend dropped at once) or stop cleanly and start
 * again. initdb refuses to run as root, so as root the cluster runs as the `postgres` system user.
 */
export class PrivateCluster {
  readonly url: string;

  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  static async create(bin: string): Promise<PrivateCluster> {
    const dir = mkdtempSync(join(tmpdir(), "fleet-pg-"));
    const cluster = new PrivateCluster(bin, dir, await freePort());
    if (process.getuid?.() === 0) chownSync(dir, ...cluster.owner());
    await cluster.as("initdb", [
      "-D",
      cluster.data,
      "-U",
      "postgres",
      "-A",
      "trust",
      "--no-sync",
      "-E",
      "UTF8",
    ]);
    await cluster.start();
    return cluster;
  }

  private get data() {
    return join(this.dir, "data");
  }

  private owner(): [number, number] {
    // The postgres system user Debian's package creates; its ids are read, not assumed.
    const { uid, gid } = userIds("postgres");
    return [uid, gid];
  }

  private async as(tool: string, args: string[]) {
    const binary = join(this.bin, tool);
    const [file, argv] =
      process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
    await run(file, argv, { cwd: this.dir, timeout: 60_000 });
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c fsync=off -c max_connections=60`;
    await this.as("pg_ctl", ["-D", this.data, "-l", join(this.dir, "log"), "-o", options, "-w", "start"]);
  }

  /** `immediate`: killed, as by a crash; `fast`: a clean stop that ends every session first. */
  async stop(mode: "immediate" | "fast"): Promise<void> {
    await this.as("pg_ctl", ["-D", this.data, "-m", mode, "-w", "stop"]);
  }

  async destroy(): Promise<void> {
    await this.stop("immediate").catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (line === undefined) throw new Error(`no ${name} user to run PostgreSQL as (initdb refuses root)`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
