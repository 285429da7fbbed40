import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation } from "../operation.ts";

export const deleteModel = defineOperation({
  id: "models.delete",
  method: "DELETE",
  path: "/v1/admin/models/{uid}",
  summary: "Remove a catalogue row (operator)",
  description:
    "404 UZ-PROVIDER-006 for an unknown uid; 409 UZ-PROVIDER-007 while the row is the platform default's model or any tenant's provider model. Bumps the catalogue version.",
  tags: ["Models"],
  scope: "model:admin",
  credentials: ["operator"],
  successStatus: 204,
  errorStatuses: [409],
  params: { uid: uuidv7("uid") },
  output: z.void(),
});
