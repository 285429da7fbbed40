import { router } from "../../trpc.ts";
import { createWorkspace } from "./create-workspace.ts";
import { listWorkspaces } from "./list-workspaces.ts";

export const workspacesRouter = router({ create: createWorkspace, list: listWorkspaces });
