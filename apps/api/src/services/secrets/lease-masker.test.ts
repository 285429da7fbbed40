import type { Tx } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { Vault } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";
import { dropMasker, keepMasker, leaseMasker, MASKER_BYTES, MASKER_ENTRIES } from "./lease-masker.ts";

const HOUR_MS = 3_600_000;

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
  it("keeps every delivery's values, and masks them with the declared ones read afresh", async () => {
    const { ctx } = instance();
    const until = ctx.now() + HOUR_MS;
    keepMasker(ctx, run("a"), [], { values: [{ name: "KEY", value: "first_value" }], until });
    keepMasker(ctx, run("a"), [], { values: [{ name: "KEY", value: "second_value" }], until });
    // Rebuilt after the secret was replaced: the fresh read finds a third value only.
    const mask = keepMasker(ctx, run("a"), [{ name: "KEY", value: "third_value" }]);
    expect(mask("first_value second_value third_value")).toBe("[secret:KEY] [secret:KEY] [secret:KEY]");
    expect((await leaseMasker(ctx, unread, run("a")))("first_value")).toBe("[secret:KEY]");
  });

  it(`keeps at most ${MASKER_ENTRIES} runs, dropping the oldest rebuildable one first`, async () => {
    const { ctx } = instance();
    const until = ctx.now() + HOUR_MS;
    keepMasker(ctx, run("delivered"), [], { values: [{ name: "KEY", value: "given_value" }], until });
    for (let i = 0; i < MASKER_ENTRIES; i++) keepMasker(ctx, run(`r${i}`), []);
    expect(await kept(ctx, "delivered")).toBe(true);
    expect(await kept(ctx, "r0")).toBe(false);
    expect(await kept(ctx, "r1")).toBe(true);
    expect(await kept(ctx, `r${MASKER_ENTRIES - 1}`)).toBe(true);
  });

  it(`keeps at most ${MASKER_BYTES / 1024 / 1024} MiB of values, dropping the oldest rebuildable first`, async () => {
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

  it("never drops delivered values while their lease may live: a delivery that does not fit is refused", async () => {
    const { ctx, clock } = instance();
    const half = Math.floor(MASKER_BYTES / 2);
    const until = clock.now + HOUR_MS;
    keepMasker(ctx, run("a"), [], { values: sized(half, "a"), until });
    keepMasker(ctx, run("b"), [], { values: sized(half, "b"), until });
    // A masker rebuilt from the database is used, not kept, when there is no room.
    const mask = keepMasker(ctx, run("c"), [{ name: "C", value: "cccc" }]);
    expect(mask("cccc")).toBe("[secret:C]");
    expect(await kept(ctx, "c")).toBe(false);
    expect(() => keepMasker(ctx, run("d"), [], { values: sized(half, "d"), until })).toThrow(
      expect.objectContaining({ code: "UZ-API-001" }),
    );
    expect(await kept(ctx, "a")).toBe(true);
    expect(await kept(ctx, "b")).toBe(true);
    // Past the latest end of a's lease, its values may go.
    clock.now = until + 1;
    keepMasker(ctx, run("d"), [], { values: sized(half, "d"), until: clock.now + HOUR_MS });
    expect(await kept(ctx, "a")).toBe(false);
    expect(await kept(ctx, "d")).toBe(true);
  });
});
