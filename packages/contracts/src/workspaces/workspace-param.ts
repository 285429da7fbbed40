import { uuidv7 } from "../common.ts";

/** The `{workspace_id}` path parameter every workspace-scoped route takes. */
export const workspaceParam = { workspace_id: uuidv7("workspace_id") };
