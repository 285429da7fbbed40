/**
 * What each audited act did, in words, as the start of a sentence whose object is the act's target
 * ("Denied" approval …, "Minted" API key deploy-bot). The action's own name stays on the row for the
 * filter, which takes it; an action this list does not know reads as its name in words.
 */
const words: Record<string, string> = {
  "api_key.mint": "Minted",
  "api_key.revoke": "Revoked",
  "api_key.delete": "Deleted",
  "api_key.rotate": "Rotated",
  "approval.approve": "Approved",
  "approval.deny": "Denied",
  "approval.extend": "Extended the deadline of",
  "approval_policy.replace": "Replaced",
  "billing.credit": "Credited",
  "chat_link.create": "Linked a chat account:",
  "chat_link.delete": "Unlinked a chat account:",
  "cli_credential.issue": "Issued",
  "cli_credential.revoke": "Revoked",
  "cli_sign_in.approve": "Approved a command-line sign-in:",
  "cli_sign_in.deny": "Denied a command-line sign-in:",
  "connector.connect": "Connected",
  "connector.disconnect": "Disconnected",
  "connector.route": "Routed a channel of",
  "connector.unroute": "Unrouted a channel of",
  "fleet.install": "Installed",
  "fleet.update": "Updated",
  "fleet.kill": "Killed",
  "fleet.delete": "Deleted",
  "fleet.budget.update": "Changed the budget of",
  "fleet_key.mint": "Minted",
  "fleet_key.delete": "Deleted",
  "fleet_library.create": "Added to the library:",
  "fleet_library.create_platform": "Added to the platform library:",
  "integration_grant.request": "Requested",
  "integration_grant.approve": "Approved",
  "integration_grant.deny": "Denied",
  "integration_grant.revoke": "Revoked",
  "member.invite": "Invited",
  "member.update": "Changed the scopes of",
  "member.remove": "Removed",
  "model.create": "Added",
  "model.update": "Updated",
  "model.delete": "Deleted",
  "lease.credentials": "Delivered the declared secrets to",
  "notice_secret.rotate": "Rotated the notice secret of",
  "platform_key.replace": "Replaced",
  "provider.replace": "Set the model provider of",
  "provider.delete": "Removed the model provider of",
  "provider.test": "Tested the model provider of",
  "runner.enroll": "Enrolled",
  "runner.update": "Updated",
  "runner.delete": "Deleted",
  "schedule.create": "Created",
  "schedule.update": "Updated",
  "schedule.delete": "Deleted",
  "secret.create": "Created",
  "secret.replace": "Replaced",
  "secret.delete": "Deleted",
  "session.end": "Signed out:",
  "session.exchange_sign_in_link": "Signed in with a link:",
  "webhook_secret.rotate": "Rotated the webhook secret of",
  "workspace.create": "Created",
};

/** "Denied", "Extended the deadline of"; an unknown `thing.do_it` reads "Thing do it". */
export function actionWords(action: string): string {
  const known = words[action];
  if (known !== undefined) return known;
  const spoken = action.replaceAll(/[._]/g, " ");
  return spoken.charAt(0).toUpperCase() + spoken.slice(1);
}

/** Keys of a row's details that hold an instant in epoch milliseconds. */
const INSTANT_KEY = /^(at|from|to|since|until)$|_at$/;
/** Epoch milliseconds from 2001 to 2286: an instant, not a count, even under a key that says so. */
const INSTANT_RANGE = [1e12, 1e13] as const;

/** Whether a detail's value is an instant: a key that names one and a number that can be one. */
export function isInstant(key: string, value: unknown): value is number {
  return (
    INSTANT_KEY.test(key) &&
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= INSTANT_RANGE[0] &&
    value < INSTANT_RANGE[1]
  );
}

/** The record kind a detail's key names by its id (`fleet_id` → `fleet`), or null. */
export function idKind(key: string): string | null {
  const kinds: Record<string, string> = {
    fleet_id: "fleet",
    gate_id: "approval_gate",
    user_id: "user",
    runner_id: "runner",
    workspace_id: "workspace",
    api_key_id: "api_key",
    key_id: "api_key",
    schedule_id: "cron",
    grant_id: "integration_grant",
  };
  return kinds[key] ?? null;
}

/** A detail's key in words: `extend_ms` → "extend ms" is left to its value; `fleet_id` → "fleet". */
export function keyWords(key: string): string {
  return key.replace(/_id$/, "").replace(/_ms$/, "").replaceAll("_", " ");
}
