import { Problem } from "@fleet/contracts";
import { and, type DeliveredSealed, eq, fleets, models, platformKeys, tenantProviders } from "@fleet/db";
import { systemResolve } from "../../runtime/public-address.ts";
import type { Sealed } from "../../runtime/vault.ts";
import { checkStoredBaseUrl } from "../providers/base-url.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { openedKey } from "./key-cache.ts";

/** Where one call goes: the provider, its endpoint, the model, and the key (opened for this call only). */
export interface Target {
  provider: "openai" | "openai_compatible" | "anthropic";
  baseUrl: string;
  /**
   * The addresses the base_url's host was checked to resolve to (all public): the call connects only to
   * them (forward.ts). Null: the system resolves it (the operator's endpoints; dev mode).
   */
  addresses: string[] | null;
  model: string;
  /** Never logged, echoed or stored; null for an openai_compatible endpoint that takes none. */
  apiKey: string | null;
}

export interface HeldLease {
  id: string;
  fleetId: string;
  tenantId: string;
  workspaceId: string;
  /** The event the lease serves: its run's frames and trace name it. */
  eventId: string;
  fencingToken: number;
  /** The secrets delivered to the run, sealed, as admission read them (the live tail's masker masks them). */
  deliveredSealed?: DeliveredSealed[] | null;
}

/**
 * The lease, if the runner is its current holder (the models list: it forwards nothing, so its budget is
 * not checked); 409 UZ-RUN-005 otherwise. A chat call's admission checks the same in its statement.
 */
export function heldLease(
  ctx: ServiceContext,
  runnerId: string,
  ref: { lease_id: string; fencing_token: number | null },
): Promise<HeldLease & { definitionModel: string | null }> {
  return fencedWrite(ctx, runnerId, ref, async (tx, lease) => {
    // A lease past its TTL that no acquire has swept yet is over all the same (as for its credentials).
    if (lease.expiresAt <= ctx.now()) {
      throw new Problem("UZ-RUN-005", {
        detail: "This lease has expired; its holder may no longer call the model.",
        current_state: "expired",
      });
    }
    const [fleet] = await tx
      .select({ tenantId: fleets.tenantId, workspaceId: fleets.workspaceId, definition: fleets.definition })
      .from(fleets)
      .where(eq(fleets.id, lease.fleetId));
    const named = (fleet?.definition as { model?: unknown } | undefined)?.model;
    return {
      id: lease.id,
      fleetId: lease.fleetId,
      tenantId: fleet?.tenantId ?? "",
      workspaceId: fleet?.workspaceId ?? "",
      eventId: lease.eventId,
      fencingToken: lease.fencingToken,
      definitionModel: typeof named === "string" ? named : null,
    };
  });
}

export interface Choice {
  provider: string;
  model: string;
  baseUrl: string | null;
  /**
   * The tenant's sealed key, or the platform key's sealed secret (null when not read here: it is opened
   * from the vault then); `platformSecret` says where the platform's key is kept. Both null: no key.
   */
  sealed: Sealed | null;
  platformSecret: { workspaceId: string; name: string } | null;
}

/**
 * The provider a run of the tenant calls: the tenant's own unless it chose `platform`, else the platform
 * default; null when there is neither. The gateway's calls read the same in their admission statement;
 * the models list and the provider's Test connection read it here.
 */
export async function providerChoice(
  ctx: ServiceContext,
  tenantId: string,
): Promise<(Choice & { source: "tenant" | "platform" }) | null> {
  const [own] = await ctx.db
    .select({
      provider: tenantProviders.provider,
      model: models.modelId,
      baseUrl: tenantProviders.baseUrl,
      wrappedKey: tenantProviders.wrappedKey,
      ciphertext: tenantProviders.ciphertext,
    })
    .from(tenantProviders)
    .innerJoin(models, eq(models.uid, tenantProviders.modelUid))
    .where(eq(tenantProviders.tenantId, tenantId));
  if (own !== undefined && own.provider !== "platform") {
    const { wrappedKey, ciphertext } = own;
    return {
      source: "tenant",
      provider: own.provider,
      model: own.model,
      baseUrl: own.baseUrl,
      sealed: wrappedKey === null || ciphertext === null ? null : { wrappedKey, ciphertext },
      platformSecret: null,
    };
  }
  const [platform] = await ctx.db
    .select({
      provider: platformKeys.provider,
      model: models.modelId,
      baseUrl: platformKeys.baseUrl,
      workspaceId: platformKeys.sourceWorkspaceId,
      secretName: platformKeys.secretName,
    })
    .from(platformKeys)
    .innerJoin(models, eq(models.uid, platformKeys.modelUid));
  if (platform === undefined) return null;
  return {
    source: "platform",
    provider: platform.provider,
    model: platform.model,
    baseUrl: platform.baseUrl,
    sealed: null,
    platformSecret: { workspaceId: platform.workspaceId, name: platform.secretName },
  };
}

/** The tenant's provider, else the platform default; 409 UZ-MODEL-001 when there is neither. */
async function chosenProvider(ctx: ServiceContext, tenantId: string): Promise<Choice> {
  const choice = await providerChoice(ctx, tenantId);
  if (choice === null) {
    throw new Problem("UZ-MODEL-001", {
      detail: "Neither the tenant nor the platform has a model provider configured.",
    });
  }
  return choice;
}

/**
 * Resolves a call's target (docs/decisions/model-gateway.md): provider from the tenant or the platform;
 * model the fleet definition's `model:` when it is a catalogue model of that provider, else the
 * provider's. The gateway's calls read all of it in their admission statement (admission.ts); this is
 * the models list's way.
 */
export async function resolveTarget(
  ctx: ServiceContext,
  lease: { tenantId: string; definitionModel: string | null },
): Promise<Target> {
  const choice = await chosenProvider(ctx, lease.tenantId);
  const provider = choice.provider as Target["provider"];
  let model = choice.model;
  if (lease.definitionModel !== null) {
    const [row] = await ctx.db
      .select({ id: models.modelId })
      .from(models)
      .where(and(eq(models.provider, provider), eq(models.modelId, lease.definitionModel)));
    if (row !== undefined) model = row.id;
  }
  return targetOf(ctx, lease.tenantId, { ...choice, model }, false);
}

/**
 * The endpoint and key of a chosen target: the operator's for a named provider, the stored base_url
 * (re-checked public now, the call then pinned to the addresses checked) for openai_compatible. The key
 * is opened last, only when everything else holds.
 */
export async function targetOf(
  ctx: ServiceContext,
  tenantId: string,
  choice: Choice,
  withKey = true,
): Promise<Target> {
  const provider = choice.provider as Target["provider"];
  let baseUrl: string;
  let addresses: string[] | null = null;
  if (provider === "openai") baseUrl = ctx.config.modelGateway.openaiBaseUrl;
  else if (provider === "anthropic") baseUrl = ctx.config.modelGateway.anthropicBaseUrl;
  else if (provider === "openai_compatible" && choice.baseUrl !== null) {
    const checked = ctx.config.devMode
      ? { href: choice.baseUrl, addresses: null }
      : await checkStoredBaseUrl(choice.baseUrl, ctx.resolve ?? systemResolve);
    baseUrl = checked.href.replace(/\/$/, "");
    addresses = checked.addresses;
  } else {
    throw new Problem("UZ-MODEL-008", {
      detail: `The gateway does not serve the ${provider} provider as configured; check the provider settings.`,
    });
  }
  const apiKey = withKey ? await openedKey(ctx, tenantId, choice) : null;
  return { provider, baseUrl, addresses, model: choice.model, apiKey };
}
