import { hasScope, Problem, uuidv7 } from "@fleet/contracts";
import { answerGate } from "../approvals/answer-gate.ts";
import { issueLinkToken } from "../chat-links/link-token.ts";
import { linkedMember } from "../chat-links/linked-member.ts";
import type { ServiceContext } from "../shared/context.ts";
import { APPROVE_ACTION, DENY_ACTION } from "./gates.ts";
import { connectorOfTeam, firstDelivery } from "./ingress.ts";
import { tellEphemerally } from "./slack-client.ts";
import { openToken } from "./token.ts";

type Envelope = Record<string, unknown>;
type Answer = { status: "ok" | "ignored" | "duplicate"; error_code?: string };

const gateId = uuidv7("gate_id");

function field(value: unknown, key: string): string | null {
  const inner =
    typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof inner === "string" && inner.length > 0 && inner.length <= 256 ? inner : null;
}

/**
 * A click on a gate message's Approve or Deny button. The team must be connected; the clicking chat user
 * must belong to that team (a user of another organisation in a shared channel never answers) and be
 * linked to a member of the connector's tenant. The click then is that member's answer, given through the
 * inbox's own `answerGate`: their `approval:resolve`, the gate's rule (named approvers, quorum) and the
 * first-answer-wins lock are the inbox's, one code path. Anything refused changes nothing and is told to
 * the chat user ephemerally, why, and for an unlinked user, with a one-time link to link themselves.
 */
export async function answerInteraction(
  ctx: ServiceContext,
  requestId: string,
  provider: string,
  envelope: Envelope,
): Promise<Answer> {
  const connector = await connectorOfTeam(ctx.db, provider, field(envelope.team, "id"));
  if (connector === null || connector.teamId === null) return { status: "ignored", error_code: "UZ-SLK-020" };
  const user = field(envelope.user, "id");
  const actions = Array.isArray(envelope.actions) ? envelope.actions : [];
  const action = actions[0];
  const actionId = field(action, "action_id");
  const parsedGate = gateId.safeParse(field(action, "value"));
  if (user === null || !parsedGate.success || (actionId !== APPROVE_ACTION && actionId !== DENY_ACTION))
    return { status: "ignored" };
  const deliveryId = `action:${parsedGate.data}:${user}:${field(action, "action_ts") ?? ""}`;
  const now = ctx.now();
  if (!(await ctx.db.transaction((tx) => firstDelivery(tx, provider, deliveryId, now))))
    return { status: "duplicate" };
  const channel = field(envelope.channel, "id") ?? field(envelope.container, "channel_id");
  const tell = (text: string) => {
    if (channel === null) return;
    // Best effort, after the answer: the vendor wants its acknowledgement within seconds, and a chat user
    // told nothing can click again.
    void Promise.resolve()
      .then(() => tellEphemerally(ctx.config, openToken(ctx, connector), { channel, user, text }))
      .catch(() => {});
  };

  // The user's own team, which a shared channel shows apart from the team the click happened in.
  const userTeam = field(envelope.user, "team_id") ?? connector.teamId;
  if (userTeam !== connector.teamId) {
    tell("Only members of the team this app is installed in can answer its gates.");
    return { status: "ignored", error_code: "UZ-SLK-041" };
  }
  const key = { tenantId: connector.tenantId, provider, teamId: connector.teamId, chatUserId: user };
  const member = await linkedMember(ctx, key);
  if (member === null) {
    const { url } = await issueLinkToken(ctx, { ...key, connectorId: connector.id }, connector.teamName);
    tell(
      `Your chat account is not linked to a member of this workspace, so your click changed nothing. ` +
        `To answer gates here, open <${url}|this one-time link> within ten minutes, signed in to the console, and confirm.`,
    );
    return { status: "ignored", error_code: "UZ-SLK-040" };
  }
  if (!hasScope(member.scopes, "approval:resolve")) {
    tell(
      "Your click changed nothing: answering gates needs the scope approval:resolve, which you do not hold.",
    );
    return { status: "ignored", error_code: "UZ-AUTH-022" };
  }
  const outcome = actionId === APPROVE_ACTION ? "approved" : "denied";
  try {
    const answered = await answerGate(
      ctx,
      member,
      { principal: `user:${member.userId}`, requestId },
      outcome,
      { workspace_id: connector.workspaceId, gate_id: parsedGate.data },
    );
    if (answered.outcome === "pending")
      tell(
        `Your approval is counted: ${answered.approvals.length} of ${answered.required_approvals} the gate needs.`,
      );
    return { status: "ok" };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    tell(`Your click changed nothing: ${error.detail}`);
    return { status: "ignored", error_code: error.code };
  }
}
