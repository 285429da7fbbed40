import { resource } from "../../trpc.ts";
import { completeConnect } from "./complete-connect.ts";
import { connectConnector } from "./connect-connector.ts";
import { deleteConnector } from "./delete-connector.ts";
import { getConnector } from "./get-connector.ts";
import { listConnectors } from "./list-connectors.ts";
import { listWorkspaceConnectors } from "./list-workspace-connectors.ts";

export const connectorsRouter = resource(
  completeConnect,
  connectConnector,
  deleteConnector,
  getConnector,
  listConnectors,
  listWorkspaceConnectors,
);
