import type { Tx } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { Vault } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";
import { dropMasker, keepMasker, leaseMasker, MASKER_BYTES, MASKER_ENTRIES } from "./lease-masker.ts";

/** An instance of its own (its vault keys its maskers) on a clock the test moves. */
function instance() {
  const clock = { now: 1_780_000_000_000 };
  const ctx = { vault: new Vault(null), now: () => clock.now } as unknown as ServiceContext;
  return { ctx, clock };
}

/** A transaction that must not be read: a run whose masker is kept reads nothing. */
const unread = {
  select() {
    throw new Error("read the database: the masker was not kept");
  },
} as unknown as Tx;

const run = (id: string) => ({ id, fleetId: `fleet-${id}`, workspaceId: "ws" });
const kept = (ctx: ServiceContext, id: string) =>
  leaseMasker(ctx, unread, run(id)).then(
    () => true,
    () => false,
  );
/** A value of `bytes` UTF-8 bytes. */
const sized = (bytes: number, fill = "v") => [{ name: "BIG", value: fill.repeat(bytes) }];

describe("a run's kept masker", () => {
  it("masks every value it was built with, declared and delivered, without reading them again", async () => {
    const { ctx } = instance();
    const values = [
      { name: "KEY", value: "first_value" },
      { name: "KEY", value: "second_value" },
    ];
    const mask = keepMasker(ctx, run("a"), values, 2);
    expect(mask("first_value second_value")).toBe("[secret:KEY] [secret:KEY]");
    const sealed = [{ name: "KEY", wrappedKey: "w", ciphertext: "c" }];
    const cached = await leaseMasker(ctx, unread, { ...run("a"), deliveredSealed: [...sealed, ...sealed] });
    expect(cached("second_value")).toBe("[secret:KEY]");
  });

  it("is rebuilt when the lease shows more deliveries than it was built with (one on another instance)", async () => {
    const { ctx } = instance();
    keepMasker(ctx, run("a"), [{ name: "KEY", value: "first_value" }], 1);
    const sealed = { name: "KEY", wrappedKey: "w", ciphertext: "c" };
    const read = leaseMasker(ctx, unread, { ...run("a"), deliveredSealed: [sealed, sealed] });
    await expect(read).rejects.toThrow("read the database");
  });

  it(`keeps at most ${MASKER_ENTRIES} runs, dropping the oldest first`, async () => {
    const { ctx } = instance();
    for (let i = 0; i <= MASKER_ENTRIES; i++) keepMasker(ctx, run(`r${i}`), []);
    expect(await kept(ctx, "r0")).toBe(false);
    expect(await kept(ctx, "r1")).toBe(true);
    expect(await kept(ctx, `r${MASKER_ENTRIES}`)).toBe(true);
  });

  it(`keeps at most ${MASKER_BYTES / 1024 / 1024} MiB of values, dropping the oldest first`, async () => {
    const { ctx } = instance();
    const third = Math.floor(MASKER_BYTES / 3);
    keepMasker(ctx, run("a"), sized(third, "a"));
    keepMasker(ctx, run("b"), sized(third, "b"));
    keepMasker(ctx, run("c"), sized(third, "c"));
    expect(await kept(ctx, "a")).toBe(true);
    keepMasker(ctx, run("d"), sized(third, "d"));
    expect(await kept(ctx, "a")).toBe(false);
    expect(await kept(ctx, "b")).toBe(true);
    expect(await kept(ctx, "d")).toBe(true);
    // A run dropped (its lease ended) frees its bytes.
    dropMasker(ctx.vault, "b");
    keepMasker(ctx, run("e"), sized(third, "e"));
    expect(await kept(ctx, "c")).toBe(true);
  });

  it("uses, and does not keep, a masker bigger than the bound, dropping no other", async () => {
    const { ctx } = instance();
    keepMasker(ctx, run("a"), [{ name: "A", value: "aaaa" }]);
    keepMasker(ctx, run("big"), sized(MASKER_BYTES + 1, "b"));
    expect(await kept(ctx, "big")).toBe(false);
    expect(await kept(ctx, "a")).toBe(true);
  });
});
