import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { connectorCatalogItem } from "./connector.ts";

export const listConnectors = defineOperation({
  id: "connectors.list",
  method: "GET",
  path: "/v1/connectors",
  summary: "List the provider catalog",
  description:
    "The providers this deployment offers, with their archetype, whether the deployment is configured for each, and whether any of the caller's workspaces has it connected.",
  tags: ["Connectors"],
  scope: "connector:read",
  credentials: tenantCredentials,
  successStatus: 200,
  output: z.object({ items: z.array(connectorCatalogItem) }).meta({ id: "ConnectorCatalog" }),
});
