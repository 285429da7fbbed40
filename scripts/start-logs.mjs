// The log files of `pnpm start`: one per process it runs (api.log, build.log, console.log, runner.log) in
// .data/logs/ or FLEET_LOG_DIR. A start moves the previous start's file to <name>.previous.log, so a
// crash's log survives one restart and the files do not grow without end.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";

const TAIL_LINES = 20;

export class LogFiles {
  #dir;
  #open = new Map();

  constructor(root, dir) {
    this.#dir = resolve(root, dir ?? join(".data", "logs"));
    mkdirSync(this.#dir, { recursive: true });
    process.once("exit", () => {
      for (const fd of this.#open.values()) closeSync(fd);
    });
  }

  /** A file descriptor appending to `<name>.log`, for a child's stdout and stderr. */
  open(name) {
    let fd = this.#open.get(name);
    if (fd === undefined) {
      const path = this.#path(name);
      if (existsSync(path)) renameSync(path, join(this.#dir, `${name}.previous.log`));
      fd = openSync(path, "a", 0o600);
      this.#open.set(name, fd);
    }
    return fd;
  }

  /** The file's path as the person can open it: relative to where they started, when inside it. */
  shown(name) {
    return this.#display(this.#path(name));
  }

  /** One line naming every file opened: `.data/logs/ (api.log, build.log, console.log, runner.log)`. */
  summary() {
    const names = [...this.#open.keys()]
      .sort()
      .map((name) => `${name}.log`)
      .join(", ");
    return `${this.#display(this.#dir)}/ (${names})`;
  }

  /** The file's last lines, indented, for a process that exited unexpectedly. */
  tail(name) {
    try {
      const lines = readFileSync(this.#path(name), "utf8").trimEnd().split("\n");
      return lines
        .slice(-TAIL_LINES)
        .map((line) => `  ${line}`)
        .join("\n");
    } catch {
      return "  (nothing written)";
    }
  }

  #path(name) {
    return join(this.#dir, `${name}.log`);
  }

  #display(path) {
    const inside = relative(process.cwd(), path);
    return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
  }
}
