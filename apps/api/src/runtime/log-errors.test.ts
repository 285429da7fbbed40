import pino from "pino";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorLineOnly, loggedError } from "./log-errors.ts";

/** Built as drizzle-orm builds its own (the real one is met end to end in test/http-surface.test.ts). */
class DrizzleQueryError extends Error {
  constructor(
    readonly query: string,
    readonly params: unknown[],
    cause: Error,
  ) {
    super(`Failed query: ${query}\nparams: ${params}`);
    Error.captureStackTrace(this, DrizzleQueryError);
    this.cause = cause;
  }
}

describe("loggedError", () => {
  it("keeps a failed query's first line, frames and cause, never its parameters", () => {
    const canary = "canary body\n    at noon (secret.ts:1:1)\nparams: more";
    const cause = Object.assign(new Error('relation "api_keys" does not exist'), { code: "42P01" });
    const error = new DrizzleQueryError("select * from api_keys where id = $1", [canary], cause);
    const logged = loggedError(error);
    const text = JSON.stringify(logged);
    expect(text).not.toContain("canary");
    expect(text).not.toContain("noon");
    expect(text).not.toContain("params:");
    expect(logged.type).toBe("DrizzleQueryError");
    expect(logged.message).toBe("Failed query: select * from api_keys where id = $1");
    expect(logged.stack).toMatch(/^\s+at /);
    expect(logged.cause).toMatchObject({ message: 'relation "api_keys" does not exist', code: "42P01" });
  });

  it("cuts the value a data exception quotes", () => {
    const error = Object.assign(new Error('invalid input syntax for type uuid: "a-caller-value"'), {
      code: "22P02",
    });
    expect(loggedError(error).message).toBe('invalid input syntax for type uuid: "…"');
  });

  it("keeps a ZodError's issues, an AggregateError's errors and what a thrown value says", () => {
    const parsed = z.object({ name: z.string() }).safeParse({ name: 1 });
    expect(loggedError(parsed.error).message).toContain(`"path": [ "name" ]`);
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const aggregate = Object.assign(new AggregateError([refused, new Error("second")], ""), {
      code: "ECONNREFUSED",
    });
    expect(loggedError(aggregate)).toMatchObject({
      code: "ECONNREFUSED",
      errors: [
        { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" },
        { message: "second" },
      ],
    });
    expect(loggedError(Object.create(null))).toEqual({ type: "object", message: "" });
    expect(loggedError({ code: "E1", message: "plain\nsecond line" })).toEqual({
      type: "object",
      code: "E1",
      message: "plain",
    });
    expect(loggedError("x".repeat(2_000)).message).toHaveLength(501);
  });
});

describe("errorLineOnly", () => {
  it("gives a line logged with an error and no message the error's first line, never its parameters", () => {
    const lines: string[] = [];
    const log = pino(
      { serializers: { err: loggedError }, hooks: { logMethod: errorLineOnly } },
      { write: (line: string) => lines.push(line) },
    );
    const error = new DrizzleQueryError("select 1", ["canary-param"], new Error("boom"));
    log.error(error);
    log.warn({ err: error, requestId: "r1" });
    log.error({ err: error }, "background write failed");
    log.info("plain %s", "text");
    log.warn({ err: { message: "not an Error\nparams: canary-param" } });
    log.warn({ err: error, msg: "its own" });
    expect(lines.join("\n")).not.toContain("canary-param");
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.map((line) => line.msg)).toEqual([
      "Failed query: select 1",
      "Failed query: select 1",
      "background write failed",
      "plain text",
      "not an Error",
      "its own",
    ]);
    expect(parsed[0].err.type).toBe("DrizzleQueryError");
    expect(parsed[1].requestId).toBe("r1");
  });
});
