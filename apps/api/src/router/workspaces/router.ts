import { resource } from "../../trpc.ts";
import { createWorkspace } from "./create-workspace.ts";
import { listVisibleWorkspaces } from "./list-visible-workspaces.ts";
import { listWorkspaces } from "./list-workspaces.ts";

export const workspacesRouter = resource(createWorkspace, listWorkspaces, listVisibleWorkspaces);
