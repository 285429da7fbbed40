import { defineOperation, tenantCredentials } from "../operation.ts";
import { workspaceParam } from "../workspaces/workspace-param.ts";
import { LIBRARY_CEILINGS, libraryItem, onboardingBody } from "./library.ts";

export const createLibrary = defineOperation({
  id: "fleetLibraries.create",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleet-libraries",
  summary: "Onboard a fleet definition into the workspace's library",
  description:
    "The body is exactly one of {definition} (the file's text) or {git_url, ref?, path?} (a repository holding it; path defaults to fleet.md). The entry is visible to this workspace only. Answers metadata, never the instructions. A malformed definition is 400 UZ-LIBRARY-010 naming the field; one past a ceiling 413 UZ-LIBRARY-011; a refused git_url 400 UZ-LIBRARY-012; a failed clone 502 UZ-LIBRARY-013.",
  tags: ["Fleet libraries"],
  scope: "library:write",
  credentials: tenantCredentials,
  successStatus: 201,
  // JSON escaping can double a definition's bytes; the definition's own ceiling is checked after.
  bodyLimit: 4 * LIBRARY_CEILINGS.definitionBytes,
  params: workspaceParam,
  body: onboardingBody,
  output: libraryItem,
});
