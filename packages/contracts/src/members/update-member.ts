import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { memberItem, memberRole, memberScopes } from "./member.ts";

export const updateMember = defineOperation({
  id: "members.update",
  method: "PATCH",
  path: "/v1/tenants/me/members/{user_id}",
  summary: "Change a member's scopes or role",
  description:
    "scopes replaces the member's scopes; their sessions and API keys act with the new ones from the next request, on every instance. A scope the member did not hold can be added only by a caller who holds it (403 UZ-AUTH-022), so nobody raises their own scopes. Only an owner changes an owner or the owner role (403 UZ-MEMBER-002); demoting the last owner answers 409 UZ-INV-004.",
  tags: ["Members"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: { user_id: uuidv7("user_id") },
  body: {
    scopes: memberScopes.optional(),
    role: memberRole.optional(),
  },
  output: memberItem,
});
