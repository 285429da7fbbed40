import type { ServiceContext } from "../shared/context.ts";
import { type OnboardingInput, onboardLibraryEntry } from "./onboarding.ts";

/** Onboards a fleet definition into the platform library, which every workspace sees. */
export function createPlatformLibrary(ctx: ServiceContext, input: OnboardingInput) {
  return onboardLibraryEntry(ctx, { visibility: "platform" }, input);
}
