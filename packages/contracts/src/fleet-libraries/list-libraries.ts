import { z } from "zod";
import { page } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { libraryItem } from "./library.ts";

export const listLibraries = defineOperation({
  id: "fleetLibraries.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleet-libraries",
  summary: "List the fleet definitions a workspace can install",
  description:
    "Platform entries and the workspace's own, newest first, then platform before tenant entries, then id. Cursor-paged: a cursor is bound to its limit. 400 UZ-LIBRARY-001 for a cursor this endpoint never issued, UZ-LIBRARY-002 for one issued for another limit, UZ-LIBRARY-003 for a limit outside 1 to 100; 500 UZ-LIBRARY-005 when the page would pass the 1 MiB body ceiling (ask for a smaller limit).",
  tags: ["Fleet libraries"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: workspaceParam,
  query: {
    starting_after: z.string().optional(),
    // Read leniently here and checked by the service, which answers UZ-LIBRARY-003 rather than UZ-REQ-001.
    limit: z
      .custom<number | string>((value) => typeof value === "number" || typeof value === "string")
      .optional()
      .meta({ type: "integer", minimum: 1, maximum: 100, default: 50 }),
  },
  output: page(libraryItem).meta({ id: "FleetLibraryPage" }),
});
