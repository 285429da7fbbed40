import { resource } from "../../trpc.ts";
import { completeConnect } from "./complete-connect.ts";
import { connectConnector } from "./connect-connector.ts";
import { deleteConnector } from "./delete-connector.ts";
import { deleteRoute } from "./delete-route.ts";
import { getConnector } from "./get-connector.ts";
import { listConnectors } from "./list-connectors.ts";
import { listRoutes } from "./list-routes.ts";
import { listWorkspaceConnectors } from "./list-workspace-connectors.ts";
import { receiveEvent } from "./receive-event.ts";
import { setRoute } from "./set-route.ts";

export const connectorsRouter = resource(
  completeConnect,
  connectConnector,
  deleteConnector,
  deleteRoute,
  getConnector,
  listConnectors,
  listRoutes,
  listWorkspaceConnectors,
  receiveEvent,
  setRoute,
);
