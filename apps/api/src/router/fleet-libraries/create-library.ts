import { createLibrary as op } from "@fleet/contracts";
import { onboardLibraryEntry } from "../../services/fleet-libraries/onboard.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createLibrary = tenantProcedure(op).mutation(({ ctx, input }) =>
  onboardLibraryEntry(
    ctx.services,
    { visibility: "tenant", tenantId: ctx.principal.tenantId, workspaceId: input.workspace_id },
    input,
  ),
);
