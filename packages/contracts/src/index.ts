// Shared schemas and the error registry. Each operation is imported from its own contract file
// (`@fleet/contracts/<resource>/<verb>-<noun>`): no list here repeats them.

export { type ActivityFrame, activityFrame } from "./activity/publish-activity.ts";
export * from "./api-keys/api-key.ts";
export * from "./approval-policies/approval-policy.ts";
export * from "./approvals/action-schema.ts";
export * from "./approvals/approval-gate.ts";
export * from "./billing/billing.ts";
export * from "./chat-links/chat-link.ts";
export * from "./cli-credentials/cli-credential.ts";
export * from "./common.ts";
export * from "./connectors/connector.ts";
export * from "./errors.ts";
export * from "./fleet-events/fleet-event.ts";
export * from "./fleet-events/stream-frame.ts";
export * from "./fleet-keys/fleet-key.ts";
export * from "./fleet-libraries/cron.ts";
export * from "./fleet-libraries/library.ts";
export * from "./fleet-libraries/mcp-servers.ts";
export * from "./fleets/fleet.ts";
export { IDEMPOTENCY_KEY_LIMIT, MESSAGE_LIMIT } from "./fleets/message-fleet.ts";
export * from "./input-screen.ts";
export * from "./integration-grants/integration-grant.ts";
export { MAX_WAIT_MS } from "./leases/acquire-lease.ts";
export * from "./leases/lease.ts";
export { CONTEXT_CHARS_PER_TOKEN, CONTEXT_MAX_TOKENS } from "./leases/lease-reads.ts";
export { toolBlastRadius, toolGateKind } from "./leases/tool-gates.ts";
export * from "./members/member.ts";
export * from "./members/role-presets.ts";
export { memoryItem } from "./memories/list-memories.ts";
export {
  MODEL_ANSWER_MAX_BYTES,
  MODEL_BODY_LIMIT,
  MODEL_CALLS_PER_LEASE,
  MODEL_STREAM_MAX_BYTES,
} from "./model-gateway/chat-completions.ts";
export * from "./models/model.ts";
export * from "./operation.ts";
export * from "./overview/overview.ts";
export * from "./providers/provider.ts";
export * from "./runners/runner.ts";
export * from "./schedules/schedule.ts";
export * from "./scopes.ts";
export * from "./secrets/secret.ts";
export * from "./sessions/device-sign-in.ts";
export { callingPerson } from "./users/get-me.ts";
export * from "./webhook-endpoints/webhook-endpoint.ts";
export * from "./webhooks/webhook-secret.ts";
export { workspaceItem } from "./workspaces/list-workspaces.ts";
