import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { memberItem, memberRole, memberScopes } from "./member.ts";
import { describePresets } from "./role-presets.ts";

export const inviteMember = defineOperation({
  id: "members.invite",
  method: "POST",
  path: "/v1/tenants/me/members",
  summary: "Invite a person to the tenant",
  description: `Adds the person with this address as a member holding the given scopes, and answers a one-time sign-in link (valid 10 minutes) for the inviter to pass on: the service sends no mail. The inviter can grant only scopes they hold (403 UZ-AUTH-022 naming the first they lack); only an owner can invite an owner (403 UZ-MEMBER-002). A person already a member answers 409 UZ-MEMBER-003. The console offers role presets, each a set of scopes (Owner also the owner role): ${describePresets()}`,
  tags: ["Members"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409],
  headers: { "cache-control": "no-store" },
  body: {
    email: z
      .email({ error: "email must be an email address" })
      .max(254, { error: "email must be at most 254 characters" }),
    scopes: memberScopes,
    role: memberRole.default("member"),
  },
  output: z
    .object({ member: memberItem, sign_in_url: z.string(), expires_at: epochMs })
    .meta({ id: "MemberInvitation" }),
});
