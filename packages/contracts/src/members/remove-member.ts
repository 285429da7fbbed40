import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const removeMember = defineOperation({
  id: "members.remove",
  method: "DELETE",
  path: "/v1/tenants/me/members/{user_id}",
  summary: "Remove a tenant member",
  description:
    "Removes the person from the caller's tenant: their next request, with a session or any API key they minted, is refused on every instance, their open streams end, and their API keys in the tenant are revoked. Idempotent: a non-member also answers 204. The tenant's last owner cannot be removed (409 UZ-INV-004); only an owner removes an owner (403 UZ-MEMBER-002).",
  tags: ["Members"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 204,
  errorStatuses: [409],
  params: { user_id: uuidv7("user_id") },
  output: z.void(),
});
