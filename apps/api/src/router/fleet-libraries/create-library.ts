import { createLibrary as op } from "@fleet/contracts/fleet-libraries/create-library";
import { onboardLibraryEntry } from "../../services/fleet-libraries/onboard.ts";
import { procedure } from "../../trpc.ts";

export const createLibrary = procedure(op).mutation(({ ctx, input }) =>
  onboardLibraryEntry(
    ctx.services,
    { visibility: "tenant", tenantId: ctx.principal.tenantId, workspaceId: input.workspace_id },
    input,
  ),
);
