/**
 * Scopes are `resource:action`. Inside a group that has `read`, `write` and `admin` levels a higher level
 * includes every lower one (`apikey:admin` covers `apikey:write` and `apikey:read`); any other action
 * (`approval:resolve`) covers only itself. An operator's `group:*` covers every action of the group.
 */
export const tenantScopes = [
  "fleet:read",
  "fleet:write",
  "fleet:admin",
  "secret:read",
  "secret:write",
  "apikey:read",
  "apikey:write",
  "apikey:admin",
  "fleetkey:read",
  "fleetkey:write",
  "grant:read",
  "grant:write",
  "connector:read",
  "connector:write",
  "billing:read",
  "workspace:admin",
  "library:write",
  "approval:read",
  "approval:resolve",
  "webhook:read",
  "webhook:write",
] as const;

/** Groups only operator tokens carry; a tenant never holds them. */
export const operatorScopeGroups = [
  "runner",
  "platform-key",
  "platform-library",
  "model",
  "workspace",
  "credit",
] as const;

export const operatorScopes = [
  "runner:read",
  "runner:write",
  "runner:admin",
  "platform-key:read",
  "platform-key:write",
  "platform-key:admin",
  "platform-library:write",
  "model:read",
  "model:write",
  "model:admin",
  "workspace:any",
  "credit:write",
] as const;

export type TenantScope = (typeof tenantScopes)[number];
export type OperatorScope = (typeof operatorScopes)[number];
export type Scope = TenantScope | OperatorScope;

const levels: Record<string, number> = { read: 1, write: 2, admin: 3 };

/** Whether one held scope covers the required one. */
function covers(held: string, required: string): boolean {
  if (held === required) return true;
  const [heldGroup, heldAction] = held.split(":", 2);
  const [requiredGroup, requiredAction] = required.split(":", 2);
  if (heldGroup !== requiredGroup || heldAction === undefined || requiredAction === undefined) return false;
  if (heldAction === "*") return true;
  const heldLevel = levels[heldAction];
  const requiredLevel = levels[requiredAction];
  return heldLevel !== undefined && requiredLevel !== undefined && heldLevel >= requiredLevel;
}

export function hasScope(held: readonly string[], required: string): boolean {
  for (const scope of held) if (covers(scope, required)) return true;
  return false;
}

const scopePattern = /^[a-z][a-z-]*:(?:[a-z]+|\*)$/;

/** Parses a space-delimited scope list, refusing anything not of the `resource:action` form. */
export function parseScopeList(text: string): string[] {
  const scopes = text.split(/\s+/).filter((s) => s.length > 0);
  for (const scope of scopes) {
    if (!scopePattern.test(scope)) throw new Error(`"${scope}" is not a scope of the form resource:action`);
  }
  return [...new Set(scopes)];
}
