import { defineOperation } from "../operation.ts";
import { LIBRARY_CEILINGS, libraryItem, onboardingBody } from "./library.ts";

export const createPlatformLibrary = defineOperation({
  id: "fleetLibraries.createPlatform",
  method: "POST",
  path: "/v1/admin/fleet-libraries",
  summary: "Onboard a fleet definition into the platform library",
  description:
    "Operator tokens only. The entry is visible to every workspace. The body and refusals are those of the workspace route.",
  tags: ["Fleet libraries"],
  scope: "platform-library:write",
  credentials: ["operator"],
  successStatus: 201,
  bodyLimit: 4 * LIBRARY_CEILINGS.definitionBytes,
  body: onboardingBody,
  output: libraryItem,
});
