import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  accessSync,
  constants,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { freePort } from "@fleet/testing/free-port";
import { e2eDir, repoRoot } from "./servers.ts";

/**
 * `pnpm start` (scripts/start.mjs) run as a new user would, beside the suite's own servers: its own ports,
 * its own fresh PGlite directory, and its own process group (as a terminal's foreground job), so a Ctrl-C
 * can reach it as a terminal sends one. Its children have process groups of their own; it is checked for
 * leftovers by descent.
 */

/** Settings of the suite's environment that would point the start at the suite's servers or database. */
const inherited = [
  "LOG_LEVEL",
  "FLEET_LOG_DIR",
  "PORT",
  "CONSOLE_PORT",
  "API_URL",
  "PUBLIC_URL",
  "CONSOLE_URL",
  "HOST",
  "DATABASE_URL",
  "DOCS_URL",
  "SESSION_SIGNING_KEY",
  "FLEET_MASTER_KEY",
  "FLEET_DEV_MODE",
  "FLEET_DEV_SCRIPTED_MODEL_URL",
  "FLEET_SCHEDULER_URL",
];

/** The first executable called `name` on the search path, skipping the directories given. */
function onPath(name: string, skip: string[]): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "" || skip.includes(dir)) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  throw new Error(`${name} is not on the PATH`);
}

/**
 * A `pnpm` in front of the real one that answers start.mjs's `pnpm exec turbo run build …` without building
 * and records that it was asked. The global setup has built the console, and the suite's console serves
 * that build: turbo would either build again (its key hashes turbo.json's globalEnv, which differs between
 * the suite's environment and this one) or restore its cached outputs, and both write over the served
 * .next. Every other pnpm command (the console's `next start`) goes to the real pnpm.
 */
function writePnpmShim(binDir: string, requestsFile: string): void {
  const real = onPath("pnpm", [binDir]);
  mkdirSync(binDir, { recursive: true });
  const script = [
    "#!/bin/sh",
    'if [ "$1" = exec ] && [ "$2" = turbo ] && [ "$3" = run ] && [ "$4" = build ]; then',
    `  echo "$*" >> '${requestsFile}'`,
    "  exit 0",
    "fi",
    `exec '${real}' "$@"`,
    "",
  ].join("\n");
  writeFileSync(join(binDir, "pnpm"), script, { mode: 0o755 });
}

export interface Stopped {
  /** How start.mjs ended: its exit code, or the signal that ended it. */
  exit: number | string | null;
  /** Processes it started still running 30 s after it was sent SIGTERM (then killed). */
  survivors: string[];
}

export interface LaunchOptions {
  /** Settings added to its environment. */
  env?: Record<string, string>;
  /** `pnpm start`, as a person types it, instead of `node scripts/start.mjs`. */
  viaPnpm?: boolean;
}

export class StartCommand {
  private output = "";
  private exited: Promise<void>;
  /** Every process seen descending from it, `pid args`: one orphaned by its end is still found. */
  private seen = new Set<string>();

  private constructor(
    readonly child: ChildProcess,
    readonly apiPort: number,
    readonly consolePort: number,
    readonly databaseUrl: string,
    readonly buildRequests: string,
    readonly logPath: string,
    /** Where start.mjs keeps the API's, the console's and the runner's logs (kept with the suite's logs). */
    readonly logDir: string,
    private readonly runDir: string,
  ) {
    const log = createWriteStream(logPath);
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString("utf8");
      log.write(chunk);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    this.exited.then(() => log.end());
  }

  /** Spawns `node scripts/start.mjs` from the repository's root on free ports and a fresh database. */
  static async launch(avoid: number[], options: LaunchOptions = {}): Promise<StartCommand> {
    const runDir = mkdtempSync(join(tmpdir(), "fleet-first-run-"));
    const apiPort = await freePort(18180);
    let consolePort = await freePort(18181);
    while (consolePort === apiPort || avoid.includes(consolePort)) consolePort = await freePort(0);
    if (avoid.includes(apiPort)) throw new Error(`port ${apiPort} is the suite's`);
    // The local demo service (status board and scripted demo model): not 8091, which a developer's own
    // `pnpm start` may hold.
    let demoPort = await freePort(18190);
    while ([apiPort, consolePort, ...avoid].includes(demoPort)) demoPort = await freePort(0);
    const databaseUrl = `pglite://${join(runDir, "db")}`;
    const binDir = join(runDir, "bin");
    const buildRequests = join(runDir, "build-requests.txt");
    writePnpmShim(binDir, buildRequests);

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) {
      if (inherited.includes(name) || name.startsWith("FLEET_RUNNER_")) delete env[name];
    }
    Object.assign(env, {
      PORT: String(apiPort),
      CONSOLE_PORT: String(consolePort),
      FLEET_DEMO_PORT: String(demoPort),
      DATABASE_URL: databaseUrl,
      PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}`,
    });
    const logDir = join(e2eDir, "logs");
    const serverLogs = join(logDir, `first-run-${apiPort}`);
    mkdirSync(logDir, { recursive: true });
    // Its servers' logs beside the suite's, not in the repository's .data/logs.
    env.FLEET_LOG_DIR = serverLogs;
    Object.assign(env, options.env ?? {});
    // Its own process group, as a terminal's job: a Ctrl-C is a SIGINT to the whole group.
    const [command, args] = options.viaPnpm ? ["pnpm", ["start"]] : [process.execPath, ["scripts/start.mjs"]];
    const child = spawn(command, args, {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new StartCommand(
      child,
      apiPort,
      consolePort,
      databaseUrl,
      buildRequests,
      join(logDir, `first-run-${apiPort}.log`),
      serverLogs,
      runDir,
    );
  }

  /** Everything it printed so far (stdout and stderr, interleaved as they came). */
  get printed(): string {
    return this.output;
  }

  /** Waits until its output matches; fails at once, with the output, if it exits first. */
  async waitFor(pattern: RegExp, seconds: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      const match = this.output.match(pattern);
      if (match) return match;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `start.mjs exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.tail()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`start.mjs did not print ${pattern} within ${seconds}s:\n${this.tail()}`);
  }

  /** The `pnpm exec turbo run build …` command lines start.mjs ran (the shim answered them). */
  buildsRequested(): string {
    try {
      return readFileSync(this.buildRequests, "utf8");
    } catch {
      return "";
    }
  }

  private tail(): string {
    return this.output.split("\n").slice(-40).join("\n");
  }

  /**
   * The processes it started that still run, one `pid args` line each: its descendants, the members of
   * their process groups, and any seen before that is still there (orphaned when its parent ended).
   */
  group(): string[] {
    const root = this.child.pid;
    if (root === undefined) return [];
    const table = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,args="], { encoding: "utf8" })
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields.length >= 4)
      .map(([pid, ppid, pgid, ...args]) => ({
        pid: pid!,
        ppid: ppid!,
        pgid: pgid!,
        line: `${pid} ${args.join(" ")}`,
      }));
    const ours = new Set([String(root)]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of table) {
        if (!ours.has(row.pid) && (ours.has(row.ppid) || ours.has(row.pgid))) {
          ours.add(row.pid);
          grew = true;
        }
      }
    }
    const running = table.filter((row) => ours.has(row.pid) || this.seen.has(row.line));
    for (const row of running) this.seen.add(row.line);
    return running.map((row) => row.line);
  }

  /** The Ctrl-C of a terminal: SIGINT to every process of its foreground group. */
  interrupt(): void {
    this.group();
    if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGINT");
  }

  /** Waits up to `seconds` for it to exit; answers its exit code or the signal that ended it. */
  async exit(seconds: number): Promise<number | string | null> {
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, seconds * 1000))]);
    return this.child.exitCode ?? this.child.signalCode;
  }

  /**
   * SIGTERM to start.mjs alone (it forwards it to its children), then waits for its whole group to end.
   * Whatever is still running after 30 s is killed and reported. Removes the run's directory and the token
   * file start.mjs's runner keeps under the repository's .data/runner.
   */
  async stop(): Promise<Stopped> {
    const pid = this.child.pid;
    let survivors: string[] = [];
    if (pid !== undefined) {
      this.group();
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
      const deadline = Date.now() + 30_000;
      let running = this.group();
      while (running.length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        running = this.group();
      }
      survivors = running;
      for (const survivor of survivors) {
        try {
          process.kill(Number(survivor.split(" ")[0]), "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
      await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    rmSync(this.runDir, { recursive: true, force: true });
    this.removeRunnerToken();
    return { exit: this.child.exitCode ?? this.child.signalCode, survivors };
  }

  /** start.mjs keeps the local runner's token per database under .data/runner; this run's database is gone. */
  private removeRunnerToken(): void {
    const database = createHash("sha256").update(this.databaseUrl).digest("hex").slice(0, 12);
    const runnerDir = join(repoRoot, ".data", "runner");
    rmSync(join(runnerDir, `local-dev-${database}.json`), { force: true });
    // Only when empty: a developer's own `pnpm start` keeps its state there.
    for (const dir of [runnerDir, join(repoRoot, ".data")]) {
      try {
        rmdirSync(dir);
      } catch {
        // not empty, or not there
      }
    }
  }
}
