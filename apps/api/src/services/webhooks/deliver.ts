import { postPinned } from "../../runtime/pinned-post.ts";
import { HostRefused, resolvePublic } from "../../runtime/public-address.ts";
import { readPolicy } from "../approval-policies/policy.ts";
import type { NoticeKind, ServiceContext, WorkspaceWebhook } from "../shared/context.ts";
import { errorCode } from "../shared/errors.ts";
import { workspaceWebhookSecret } from "./secret.ts";
import { sign } from "./signature.ts";

/** How long one delivery may take before it is given up. */
export const DELIVERY_TIMEOUT_MS = 5_000;

/**
 * POSTs one notice to the workspace's outgoing webhook (the approval policy's escalation URL; budget alerts
 * use it too, with `kind` in the user agent), signed like every webhook of the service
 * (`x-signature-timestamp`, `x-signature: v0=<hex HMAC-SHA256(secret, "v0:" + ts + ":" + body)>`) with the
 * workspace's notice secret (the outgoing one: a receiver of notices holds nothing that approves a grant).
 * Answers null when delivered (a 2xx), else why not. A workspace without a URL sends nothing; one without a
 * notice secret sends nothing either (an unsigned call could not be trusted).
 */
export async function deliverWorkspaceWebhook(
  ctx: ServiceContext,
  workspaceId: string,
  payload: unknown,
  kind: NoticeKind = "escalation",
): Promise<string | null> {
  const policy = await readPolicy(ctx.db, workspaceId);
  const url = policy?.escalationWebhookUrl ?? null;
  if (url === null) return null;
  const target = new URL(url);
  const secret = await workspaceWebhookSecret(ctx.db, ctx.vault, workspaceId, "outgoing");
  if (secret === null) return `not sent to ${target.origin}: the workspace has no notice secret to sign with`;
  let addresses: string[] | null = null;
  if (!ctx.config.devMode) {
    // The host was public when the policy was stored; a name can change what it resolves to since. The
    // call connects to the addresses checked now, so it cannot be re-pointed after this check.
    try {
      addresses = await resolvePublic(target.hostname);
    } catch (error) {
      const why = error instanceof HostRefused ? "resolves to a non-public address" : "does not resolve";
      return `not sent to ${target.origin}: the host ${why}`;
    }
  }
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(ctx.now() / 1000);
  try {
    const status = await postPinned(
      target,
      body,
      {
        "content-type": "application/json",
        "user-agent": `fleet-control-plane/${kind}`,
        "x-signature-timestamp": String(timestamp),
        "x-signature": sign(secret, timestamp, body),
      },
      { addresses, timeoutMs: DELIVERY_TIMEOUT_MS },
    );
    return status >= 200 && status < 300 ? null : `${target.origin} answered ${status}`;
  } catch (error) {
    return `${target.origin} unreachable: ${errorCode(error)}`;
  }
}

/** The `WorkspaceWebhook` port, wired into the service context. */
export const workspaceWebhook: WorkspaceWebhook = { send: deliverWorkspaceWebhook };
