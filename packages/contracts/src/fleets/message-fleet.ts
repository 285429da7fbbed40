import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetParams } from "./fleet.ts";
import { IDEMPOTENCY_KEY_LIMIT, MESSAGE_LIMIT } from "./values.ts";

export { IDEMPOTENCY_KEY_LIMIT, IDEMPOTENCY_WINDOW_MS, MESSAGE_LIMIT } from "./values.ts";

export const messageFleet = defineOperation({
  id: "fleets.message",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/messages",
  summary: "Send a fleet a message",
  description:
    "Stores a chat event (status received) for a runner to lease. A paused, stopped or killed fleet answers 409 UZ-FLEET-003 with current_state. With an Idempotency-Key (1-255 printable ASCII characters), a repeat within 24 h of the first success answers that success again (202, the same event_id) and stores nothing, even when the two arrive together; the same key with a different message answers 422 UZ-REQ-008. Keys are scoped to the fleet.",
  tags: ["Fleets"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 202,
  errorStatuses: [409, 422],
  bodyLimit: MESSAGE_LIMIT + 1024,
  params: fleetParams,
  requestHeaders: {
    idempotency_key: z
      .string({ error: "Idempotency-Key must be a string" })
      .regex(/^[\x20-\x7e]{1,255}$/, {
        error: `Idempotency-Key must be 1-${IDEMPOTENCY_KEY_LIMIT} printable ASCII characters`,
      })
      .optional(),
  },
  body: {
    message: z
      .string({ error: "message must be a string" })
      .min(1, { error: "message must not be empty" })
      .refine((value) => Buffer.byteLength(value) <= MESSAGE_LIMIT, {
        error: `message must be at most ${MESSAGE_LIMIT} bytes`,
      }),
  },
  output: z.object({ status: z.literal("accepted"), event_id: z.string() }).meta({ id: "MessageAccepted" }),
});
