import { hasScope, type TenantScope, tenantScopes } from "../scopes.ts";
import type { MemberRole } from "./member.ts";

export type RolePresetId = "viewer" | "approver" | "operator" | "owner";

/** A named bundle of scopes (and the role it gives a member) that invitations and API keys start from. */
export interface RolePreset {
  id: RolePresetId;
  label: string;
  /** What a person or key with it does, in a sentence. */
  description: string;
  /** The role an invitation with this preset gives; an API key has none. */
  role: MemberRole;
  /** Every scope it holds, the reads its writes need included, in the order of `tenantScopes`. */
  scopes: readonly TenantScope[];
}

const inOrder = (scopes: readonly TenantScope[]): readonly TenantScope[] =>
  tenantScopes.filter((scope) => scopes.includes(scope));

const viewer: readonly TenantScope[] = [
  "fleet:read",
  "approval:read",
  "secret:read",
  "connector:read",
  "grant:read",
];
const approver: readonly TenantScope[] = [...viewer, "approval:resolve"];
const operator: readonly TenantScope[] = [
  ...approver,
  "fleet:write",
  "secret:write",
  "connector:write",
  "grant:write",
  "fleetkey:read",
  "fleetkey:write",
  "library:write",
  "apikey:read",
  "apikey:write",
  "billing:read",
  "webhook:read",
  "webhook:write",
];

/**
 * The presets, least to most. The one list the console's invitation and API key dialogs and the API
 * reference read (docs/decisions/credentials-and-sign-in.md, "Role presets").
 */
export const rolePresets: readonly RolePreset[] = [
  {
    id: "viewer",
    label: "Viewer",
    description: "Sees fleets, runs, the approvals inbox, connectors and secret names. Changes nothing.",
    role: "member",
    scopes: inOrder(viewer),
  },
  {
    id: "approver",
    label: "Approver",
    description: "A viewer who also answers gates, with the fleet and the evidence behind each.",
    role: "member",
    scopes: inOrder(approver),
  },
  {
    id: "operator",
    label: "Operator",
    description:
      "Runs fleets day to day: installs, messages, schedules, secrets, connectors, keys, webhooks.",
    role: "member",
    scopes: inOrder(operator),
  },
  {
    id: "owner",
    label: "Owner",
    description: "Every scope and the tenant's administration; can make other owners.",
    role: "owner",
    scopes: tenantScopes,
  },
];

/** The preset these scopes (and, for a member, this role) are exactly; undefined: custom. */
export function presetOf(scopes: readonly string[], role?: MemberRole): RolePreset | undefined {
  const chosen = new Set(scopes);
  return rolePresets.find(
    (preset) =>
      (role === undefined || preset.role === role) &&
      preset.scopes.length === chosen.size &&
      preset.scopes.every((scope) => chosen.has(scope)),
  );
}

/** The preset's scopes a holder of `held` lacks: what keeps them from granting it. */
export function lackedScopes(scopes: readonly string[], held: readonly string[]): string[] {
  return scopes.filter((scope) => !hasScope(held, scope));
}

/** One line per preset, for an operation's description in the API reference. */
export function describePresets(): string {
  return rolePresets.map((preset) => `${preset.label}: ${preset.scopes.join(", ")}.`).join(" ");
}
