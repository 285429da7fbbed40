import { defineOperation, tenantCredentials } from "../operation.ts";
import { chatLinkList } from "./chat-link.ts";

export const listTenantChatLinks = defineOperation({
  id: "chatLinks.listTenant",
  method: "GET",
  path: "/v1/tenants/me/chat-links",
  summary: "List every chat link in the tenant",
  description: "Every member's linked chat users, oldest first: what an admin reviews and removes.",
  tags: ["Members"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  output: chatLinkList,
});
