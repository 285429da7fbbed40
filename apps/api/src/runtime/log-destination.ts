import { writeSync } from "node:fs";

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Where the API's log lines go (stdout unless told otherwise): copied into a 64 KiB buffer outside the
 * JavaScript heap, written out with one write(2) when the next line might not fit, 100 ms after the first
 * line it holds, and when the process exits. A write(2) per line cost a fifth of a cached request;
 * pino's own buffered destination measures each line against the whole pending string, and holding lines
 * as strings until a write kept them alive long enough for the garbage collector to copy them, each cost
 * as much again. A process killed with SIGKILL loses at most the last 100 ms of lines.
 */
export class LogDestination {
  readonly #buffer: Buffer;
  #used = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly fd = 1,
    size = 64 * 1024,
    private readonly delayMs = 100,
  ) {
    this.#buffer = Buffer.allocUnsafe(size);
    process.on("exit", () => this.flush());
  }

  write(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8: room for that much means room for the line.
    const room = this.#buffer.length - this.#used;
    if (line.length * 3 > room) {
      this.flush();
      if (line.length * 3 > this.#buffer.length) {
        this.#writeAll(Buffer.from(line));
        return;
      }
    }
    this.#used += this.#buffer.write(line, this.#used);
    this.#timer ??= setTimeout(() => this.flush(), this.delayMs).unref();
  }

  flush(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#used === 0) return;
    const used = this.#used;
    this.#used = 0;
    this.#writeAll(this.#buffer.subarray(0, used));
  }

  #writeAll(data: Buffer): void {
    while (data.length > 0) {
      try {
        data = data.subarray(writeSync(this.fd, data));
      } catch (error) {
        // stdout may be a non-blocking pipe that is full for a moment: wait for its reader.
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
        Atomics.wait(sleeper, 0, 0, 5);
      }
    }
  }
}
