import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { libraryEntryView, libraryIdParam } from "./library.ts";

export const getLibrary = defineOperation({
  id: "fleetLibraries.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleet-libraries/{library_id}",
  summary: "Read one library entry in full",
  description:
    "A platform entry or one of this workspace's, with its instructions and triggers. Any other id, another workspace's entry included, is 404 UZ-BUNDLE-001.",
  tags: ["Fleet libraries"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { ...workspaceParam, ...libraryIdParam },
  output: libraryEntryView,
});
