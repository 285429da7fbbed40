import { describe, expect, it } from "vitest";
import { createLogger } from "./log.ts";

describe("the logger", () => {
  it("writes JSON lines at or above its level, with credentials redacted", () => {
    const lines: string[] = [];
    const log = createLogger("info", (line) => lines.push(line));
    log.debug("not written");
    log.info("refused", { error: new Error("token agt_rAAAAAAAAAAAAAAAAAAAA does not verify") });
    log.warn("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl in a message");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "info",
      msg: "refused",
      error: "token [redacted] does not verify",
    });
    expect(JSON.parse(lines[1]!).msg).toBe("jwt [redacted] in a message");
  });
});
