// The processes `pnpm start` runs (the console's build, the API, the console, the local runner) and how
// they stop. Each runs in its own process group: the terminal's Ctrl-C reaches this script (and pnpm) only,
// never a child, so each child hears one signal, from here, in order. Before, the runner heard the
// terminal's SIGINT and then this script's SIGTERM, took the second for "stop now" and exited with its
// leases held; they waited out their 30 s TTL, and the API, which heard the same SIGINT, was gone anyway.
import { spawn } from "node:child_process";

/** Signals within this long of the first are the same Ctrl-C: pnpm forwards the terminal's SIGINT. */
const SAME_SIGNAL_MS = 1_000;
/** Past the runner's own grace, the time its last report or release may take before it is killed. */
const RUNNER_MARGIN_MS = 5_000;

const isRunning = (child) => child.exitCode === null && child.signalCode === null;

export class Processes {
  /** @type {import("node:child_process").ChildProcess[]} */
  #children = [];
  #stopping = false;
  #firstSignalAt = 0;

  /**
   * @param {{ cwd: string, runnerGraceMs: number, serverGraceMs: number, say: (line: string) => void }} options
   */
  constructor(options) {
    this.options = options;
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => this.#onSignal(signal));
    // Whatever ends this process (an error included) ends its children: in their own groups, they would
    // otherwise outlive it.
    process.on("exit", () => {
      for (const child of this.#children) if (isRunning(child)) this.#kill(child, "SIGKILL");
    });
  }

  get stopping() {
    return this.#stopping;
  }

  /**
   * Starts `command` as a process of role `name` in its own group. `onExit` hears an exit nobody asked
   * for (none once a stop began).
   */
  run(name, command, args, { env, stdio, onExit }) {
    // Nothing starts once a stop began: it would outlive the stop.
    if (this.#stopping) throw new Error(`not starting ${name}: stopping`);
    const child = spawn(command, args, { cwd: this.options.cwd, env, stdio, detached: true });
    child.fleetRole = name;
    this.#children.push(child);
    child.on("exit", (code, signal) => {
      if (!this.#stopping) onExit?.(code, signal);
    });
    return child;
  }

  /**
   * Stops everything and exits with `code` once all have: first the build and the runner (which reports
   * or hands back its leases while the API still answers), then the API and the console.
   */
  async stopAll(code) {
    if (this.#stopping) return;
    this.#stopping = true;
    const { runnerGraceMs, serverGraceMs, say } = this.options;
    const first = this.#children.filter((child) => ["runner", "build"].includes(child.fleetRole));
    if (first.some((child) => child.fleetRole === "runner" && isRunning(child))) {
      await this.#stop(first, runnerGraceMs + RUNNER_MARGIN_MS);
      say("start: the runner stopped; stopping the API and the console…");
    } else await this.#stop(first, serverGraceMs);
    await this.#stop(this.#children, serverGraceMs);
    say("start: stopped.");
    process.exit(code);
  }

  #onSignal(signal) {
    const now = Date.now();
    if (!this.#stopping) {
      this.#firstSignalAt = now;
      this.options.say(
        `start: stopping (the runner first finishes or hands back its leases, up to ${Math.round(this.options.runnerGraceMs / 1000)} s; Ctrl-C again stops at once)…`,
      );
      void this.stopAll(0);
      return;
    }
    if (now - this.#firstSignalAt < SAME_SIGNAL_MS) return;
    // A second Ctrl-C: the person wants it now. Each child hears its second signal, which for the runner
    // and the API means "now" (held leases expire and are reclaimed).
    this.options.say(`start: ${signal} again: stopping at once`);
    for (const child of this.#children) if (isRunning(child)) this.#kill(child, "SIGTERM");
    setTimeout(() => process.exit(1), 2_000).unref();
  }

  /** SIGTERM to each (its whole group for the build), then SIGKILL after `graceMs`; resolves once all exited. */
  #stop(list, graceMs) {
    const running = list.filter(isRunning);
    for (const child of running) this.#kill(child, "SIGTERM");
    const killer = setTimeout(() => {
      for (const child of running) if (isRunning(child)) this.#kill(child, "SIGKILL");
    }, graceMs);
    return Promise.all(
      running.map(
        (child) => new Promise((resolve) => (isRunning(child) ? child.once("exit", resolve) : resolve())),
      ),
    ).finally(() => clearTimeout(killer));
  }

  /**
   * The build (turbo, then next) and SIGKILL go to the child's whole group; a graceful SIGTERM goes to the
   * child alone, which stops its own children in its own way (next start's workers, for one).
   */
  #kill(child, signal) {
    try {
      if (signal === "SIGKILL" || child.fleetRole === "build") process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // gone meanwhile
    }
  }
}
