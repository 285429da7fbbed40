import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetParams } from "./fleet.ts";

/** The largest message a person can send a fleet, in bytes. */
export const MESSAGE_LIMIT = 32 * 1024;

export const messageFleet = defineOperation({
  id: "fleets.message",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/messages",
  summary: "Send a fleet a message",
  description:
    "Stores a chat event (status received) for a runner to lease. A paused, stopped or killed fleet answers 409 UZ-FLEET-003 with current_state.",
  tags: ["Fleets"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 202,
  errorStatuses: [409],
  bodyLimit: MESSAGE_LIMIT + 1024,
  params: fleetParams,
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
