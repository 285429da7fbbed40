import { cursorParam, page, queryInt } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { cliCredentialItem } from "./cli-credential.ts";

export const listCliCredentials = defineOperation({
  id: "cliCredentials.list",
  method: "GET",
  path: "/v1/users/me/cli-credentials",
  summary: "List the calling person's command-line credentials",
  description:
    "The credentials command-line sign-ins gave the calling person in this tenant that have not expired, newest first, revoked ones included (with revoked_at). Cursor-paged.",
  tags: ["Identity"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 100).default(50) },
  output: page(cliCredentialItem).meta({ id: "CliCredentialPage" }),
});
