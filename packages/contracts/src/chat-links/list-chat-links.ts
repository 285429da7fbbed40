import { defineOperation, tenantCredentials } from "../operation.ts";
import { chatLinkList } from "./chat-link.ts";

export const listChatLinks = defineOperation({
  id: "chatLinks.list",
  method: "GET",
  path: "/v1/users/me/chat-links",
  summary: "List the calling person's chat links",
  description: "The chat users linked to the calling member in this tenant, oldest first.",
  tags: ["Identity"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  output: chatLinkList,
});
