import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { connectorCatalogItem } from "./connector.ts";

export const listWorkspaceConnectors = defineOperation({
  id: "connectors.listWorkspace",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/connectors",
  summary: "List a workspace's connectors",
  description:
    "The catalog as this workspace sees it: a bare array, `connected` meaning connected in this workspace (a connector that needs reconnecting is not connected).",
  tags: ["Connectors"],
  scope: "connector:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  output: z.array(connectorCatalogItem),
});
