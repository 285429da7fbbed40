import { errorRegistry, type OutputOf, Problem } from "@fleet/contracts";
import type { testTenantProvider as operation } from "@fleet/contracts/providers/test-tenant-provider";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { forwardChat, readCapped } from "./forward.ts";
import { providerChoice, targetOf } from "./resolve.ts";

/** A test waits at most this long for its answer (a run's call may wait the gateway's whole deadline). */
export const PROVIDER_TEST_DEADLINE_MS = 15_000;
/** The answer is read this far: its text is never shown, only whether it came. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * The smallest call every wire accepts: one user turn, one output token. `max_completion_tokens` is the
 * OpenAI name the Anthropic translation reads too; servers that do not know it ignore it.
 */
const PROBE = {
  messages: [{ role: "user", content: "Reply with OK." }],
  max_completion_tokens: 1,
  stream: false,
};

/** The test's answer, as the contract shapes it. */
export type ProviderTest = OutputOf<typeof operation>;

/** A problem met on the way, as the test's answer: its code, its registry title, its detail. */
function failureOf(problem: Problem): ProviderTest["failure"] {
  return { error_code: problem.code, title: errorRegistry[problem.code].title, detail: problem.detail };
}

/**
 * One minimal call to the provider the tenant's runs would use, through the gateway's own pieces: the
 * endpoint from `targetOf` (an openai_compatible base_url checked public again and the call pinned to the
 * addresses checked), the key opened from its sealed copy, the call and its refusals from `forwardChat`
 * (UZ-MODEL-002…006, the key scrubbed from any vendor text). The outcome is the answer; only a fault of
 * our own (the database) is thrown. Audited as `provider.test`, since it spends on the tenant's key.
 */
export async function testTenantProvider(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
): Promise<ProviderTest> {
  const choice = await providerChoice(ctx, tenantId);
  const result: ProviderTest = {
    ok: false,
    source: choice?.source ?? null,
    provider: choice?.provider ?? null,
    model: choice?.model ?? null,
    latency_ms: null,
    failure: null,
  };
  try {
    if (choice === null) {
      throw new Problem("UZ-MODEL-001", {
        detail: "Neither the tenant nor the platform has a model provider configured.",
      });
    }
    const target = await targetOf(ctx, tenantId, choice);
    const started = performance.now();
    const forwarded = await forwardChat(
      target,
      PROBE,
      Math.min(PROVIDER_TEST_DEADLINE_MS, ctx.config.modelGateway.deadlineMs),
    );
    try {
      const text = await readCapped(forwarded.response, ANSWER_MAX_BYTES);
      if (text === null) throw new Error("the answer passed its bound");
    } catch {
      const timedOut = (forwarded.reason() as { name?: string } | undefined)?.name === "TimeoutError";
      throw new Problem(timedOut ? "UZ-MODEL-003" : "UZ-MODEL-002", {
        detail: timedOut
          ? `The ${target.provider} provider did not finish its answer within the deadline.`
          : `The ${target.provider} provider broke off its answer.`,
      });
    } finally {
      forwarded.stop();
    }
    result.ok = true;
    result.latency_ms = Math.round(performance.now() - started);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    result.failure = failureOf(error);
  }
  const at = ctx.now();
  await ctx.db.transaction((tx) =>
    recordAudit(tx, {
      actor,
      at,
      tenantId,
      workspaceId: null,
      action: "provider.test",
      target: "tenant_provider",
      details: {
        source: result.source,
        provider: result.provider,
        model: result.model,
        ok: result.ok,
        error_code: result.failure?.error_code ?? null,
      },
    }),
  );
  return result;
}
