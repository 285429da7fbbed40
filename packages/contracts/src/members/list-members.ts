import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { memberItem } from "./member.ts";

export const listMembers = defineOperation({
  id: "members.list",
  method: "GET",
  path: "/v1/tenants/me/members",
  summary: "List the tenant's members",
  description:
    "Oldest first, cursor-paged: follow next_cursor until it is null. Needs workspace:admin, the tenant's administration scope.",
  tags: ["Members"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  query: {
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
  },
  output: page(memberItem).meta({ id: "MemberPage" }),
});
