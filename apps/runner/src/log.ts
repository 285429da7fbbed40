const levels = { error: 0, warn: 1, info: 2, debug: 3 } as const;
export type LogLevel = keyof typeof levels;

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Credentials that must never reach a log line: runner and tenant keys, and JWTs (operator tokens).
 * Nothing passes them to the logger on purpose; this is the net under an error message that quotes one.
 */
const secretPattern = /agt_[a-z][A-Za-z0-9_-]{8,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

export function redact(text: string): string {
  return text.replace(secretPattern, "[redacted]");
}

/** JSON lines on stdout, one per entry, like the API's logs. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const entry =
    (at: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (levels[at] > levels[level]) return;
      const line = JSON.stringify({ time: Date.now(), level: at, msg, ...fields }, (_key, value) =>
        value instanceof Error ? value.message : value,
      );
      write(`${redact(line)}\n`);
    };
  return { error: entry("error"), warn: entry("warn"), info: entry("info"), debug: entry("debug") };
}

/** A logger that drops everything, for tests. */
export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
