import { randomBytes } from "node:crypto";
import { Problem, WEBHOOK_ENDPOINT_SECRET_PREFIX, type WebhookEndpointItem } from "@fleet/contracts";
import { and, type Database, eq, type Tx, webhookEndpoints } from "@fleet/db";
import { type Resolve, requireOutgoingUrl, systemResolve, UrlRefused } from "../../runtime/public-address.ts";
import type { Vault } from "../../runtime/vault.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type EndpointHealth, healthOf, NO_HEALTH } from "./endpoint-health.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * The name the vault binds an endpoint's secret to: `#` starts no secret name, and the endpoint's id makes
 * a sealed secret copied onto another endpoint (or a secrets or webhook-secrets row) fail to open.
 */
const vaultName = (endpointId: string) => `#webhook-endpoint:${endpointId}`;

/** A new signing secret in the Standard Webhooks form: `whsec_` and base64 of 32 random bytes. */
export function mintEndpointSecret(): string {
  return `${WEBHOOK_ENDPOINT_SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export function sealEndpointSecret(vault: Vault, workspaceId: string, endpointId: string, secret: string) {
  return vault.seal(workspaceId, vaultName(endpointId), { secret });
}

/**
 * The secrets a delivery at `now` signs with: the one in force, then the one a rotation replaced while it
 * is still within its 24 hours. Opened only to sign; never served again or logged.
 */
export function signingSecrets(
  vault: Vault,
  row: Pick<
    EndpointRow,
    "id" | "workspaceId" | "previousWrappedKey" | "previousCiphertext" | "previousExpiresAt"
  > & {
    /** The secret in force, sealed: every endpoint's but the notice endpoint's, which signs with none of its own. */
    wrappedKey: string;
    ciphertext: string;
  },
  now: number,
): string[] {
  const open = (sealed: { wrappedKey: string; ciphertext: string }) =>
    String(vault.open(row.workspaceId, vaultName(row.id), sealed).secret);
  const secrets = [open(row)];
  if (
    row.previousWrappedKey !== null &&
    row.previousCiphertext !== null &&
    (row.previousExpiresAt ?? 0) > now
  ) {
    secrets.push(open({ wrappedKey: row.previousWrappedKey, ciphertext: row.previousCiphertext }));
  }
  return secrets;
}

export function toEndpointItem(row: EndpointRow, now: number, health: EndpointHealth): WebhookEndpointItem {
  const previousLive = row.previousExpiresAt !== null && row.previousExpiresAt > now;
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes as WebhookEndpointItem["event_types"],
    fleet_id: row.fleetId,
    enabled: row.enabled,
    disabled_reason: row.disabledReason as WebhookEndpointItem["disabled_reason"],
    disabled_at: row.disabledAt,
    health,
    managed_by: row.managedBy as WebhookEndpointItem["managed_by"],
    secret_created_at: row.secretCreatedAt,
    previous_secret_expires_at: previousLive ? row.previousExpiresAt : null,
    created_by: row.createdBy,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The endpoint as reads show it, its health read in `db` (the caller's transaction). */
export async function readEndpointItem(db: Database | Tx, row: EndpointRow, now: number) {
  const health = await healthOf(db, [row.id], now);
  return toEndpointItem(row, now, health.get(row.id) ?? NO_HEALTH);
}

/**
 * Refuses a change the approval policy owns on the workspace's notice endpoint (its URL, types, secret, or
 * its removal): 409 UZ-WEBHOOK-012, naming what to do instead.
 */
export function refuseIfManaged(
  row: Pick<EndpointRow, "id" | "managedBy">,
  instead = "Change or remove it with PUT …/approval-policy (escalation_webhook_url); only enabling and disabling it is done here.",
): void {
  if (row.managedBy === null) return;
  throw new Problem("UZ-WEBHOOK-012", {
    detail: `Endpoint ${row.id} is the workspace's notice endpoint, the approval policy's escalation URL. ${instead}`,
    current_state: "managed",
  });
}

/** An id that names no endpoint of the workspace's (another tenant's reads the same). */
export function endpointNotFound(id: string): Problem {
  return new Problem("UZ-WEBHOOK-007", { detail: `No webhook endpoint ${id} in this workspace.` });
}

/** The endpoint of the tenant's workspace, locked for the caller's change when `forUpdate`; else 404. */
export async function requireEndpoint(
  tx: Tx,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string },
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<EndpointRow> {
  const query = tx
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.id, input.endpoint_id),
        eq(webhookEndpoints.workspaceId, input.workspace_id),
        eq(webhookEndpoints.tenantId, tenantId),
      ),
    );
  const [row] = forUpdate ? await query.for("update") : await query;
  if (row === undefined) throw endpointNotFound(input.endpoint_id);
  return row;
}

/**
 * The URL to store: https, no credentials, a host that is or resolves only to public addresses (dev mode
 * also takes http and local hosts); 400 UZ-WEBHOOK-008 otherwise. Checked again at every delivery.
 */
export async function checkEndpointUrl(ctx: ServiceContext, raw: string): Promise<string> {
  const resolve: Resolve = ctx.resolve ?? systemResolve;
  try {
    return await requireOutgoingUrl(raw, "url", ctx.config.devMode, resolve);
  } catch (error) {
    if (error instanceof UrlRefused) throw new Problem("UZ-WEBHOOK-008", { detail: error.message });
    throw error;
  }
}
