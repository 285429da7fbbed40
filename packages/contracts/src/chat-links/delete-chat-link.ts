import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const deleteChatLink = defineOperation({
  id: "chatLinks.delete",
  method: "DELETE",
  path: "/v1/tenants/me/chat-links/{link_id}",
  summary: "Remove a chat link",
  description:
    "The chat user's clicks no longer act as the member. A member removes their own links; removing another member's needs workspace:admin (403 UZ-CONN-008). A link that is not in the caller's tenant (or no longer exists) is 404 UZ-CONN-009.",
  tags: ["Members"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 204,
  errorStatuses: [403],
  params: { link_id: uuidv7("link_id") },
  output: z.void(),
});
