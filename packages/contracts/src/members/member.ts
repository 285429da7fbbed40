import { z } from "zod";
import { epochMs } from "../common.ts";
import { tenantScopes } from "../scopes.ts";

/** A tenant member's role: an owner may make and change owners; the last owner cannot leave. */
export const memberRoles = ["owner", "member"] as const;
export type MemberRole = (typeof memberRoles)[number];

export const memberRole = z.enum(memberRoles, { error: `role must be one of ${memberRoles.join(", ")}` });

/** Tenant scopes a member holds; duplicates are folded. */
export const memberScopes = z
  .array(z.enum(tenantScopes, { error: "scopes must be tenant scopes" }), {
    error: "scopes must be an array of tenant scopes",
  })
  .max(tenantScopes.length * 2, { error: "scopes lists too many entries" })
  .transform((scopes) => [...new Set(scopes)]);

/** A person's place in the tenant, as the members list shows it. */
export const memberItem = z
  .object({
    user_id: z.string(),
    email: z.string(),
    display_name: z.string().nullable(),
    role: memberRole,
    scopes: z.array(z.string()),
    created_at: epochMs,
  })
  .meta({ id: "Member" });
export type MemberItem = z.infer<typeof memberItem>;
