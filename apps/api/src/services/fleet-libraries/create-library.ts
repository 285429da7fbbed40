import type { ServiceContext } from "../shared/context.ts";
import { type OnboardingInput, onboardLibraryEntry } from "./onboarding.ts";

/** Onboards a fleet definition into the library of one of the tenant's workspaces. */
export function createLibrary(
  ctx: ServiceContext,
  tenantId: string,
  input: OnboardingInput & { workspace_id: string },
) {
  return onboardLibraryEntry(ctx, { visibility: "tenant", tenantId, workspaceId: input.workspace_id }, input);
}
