import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveMasterKey, Vault } from "./vault.ts";

describe("the vault's master key", () => {
  it("is generated once into the embedded data directory, readable by its owner only", () => {
    const dir = mkdtempSync(join(tmpdir(), "fleet-vault-"));
    const first = resolveMasterKey(undefined, dir, true)!;
    const second = resolveMasterKey(undefined, dir, true)!;
    expect(first.length).toBe(32);
    expect(second.equals(first)).toBe(true);
    expect(statSync(join(dir, "master.key")).mode & 0o777).toBe(0o600);
    const sealed = new Vault(first).seal("ws", "NAME", { a: 1 });
    expect(new Vault(second).open("ws", "NAME", sealed)).toEqual({ a: 1 });
  });

  it("is absent on PostgreSQL unless configured, and the vault then refuses with UZ-VAULT-002", () => {
    expect(resolveMasterKey(undefined, null, false)).toBeNull();
    expect(() => new Vault(null).seal("ws", "NAME", { a: 1 })).toThrow(
      expect.objectContaining({ code: "UZ-VAULT-002" }),
    );
  });
});
