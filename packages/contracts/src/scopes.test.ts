import { describe, expect, it } from "vitest";
import { hasScope, parseScopeList } from "./scopes.ts";

describe("scopes", () => {
  it.each([
    [["apikey:admin"], "apikey:read", true],
    [["apikey:admin"], "apikey:write", true],
    [["apikey:write"], "apikey:admin", false],
    [["fleet:write"], "fleet:read", true],
    [["secret:write"], "secret:read", true],
    [["approval:resolve"], "approval:read", false],
    [["approval:read"], "approval:resolve", false],
    [["runner:*"], "runner:admin", true],
    [["model:admin"], "model:read", true],
    [["fleet:admin"], "secret:read", false],
    [["workspace:admin"], "workspace:any", false],
    [[], "fleet:read", false],
  ] as const)("%j covers %s: %s", (held, required, expected) => {
    expect(hasScope(held, required)).toBe(expected);
  });

  it("parses space-delimited lists and refuses malformed entries", () => {
    expect(parseScopeList("  fleet:read   approval:read fleet:read ")).toEqual([
      "fleet:read",
      "approval:read",
    ]);
    expect(() => parseScopeList("fleet")).toThrow(/resource:action/);
  });
});
