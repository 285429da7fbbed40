import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";

/** The `{channel_id}` path parameter: the vendor's channel id (`C0123ABCD`). */
export const channelParam = {
  channel_id: z
    .string({ error: "channel_id must be a string" })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "channel_id must be 1-64 letters, digits, _ or -" }),
};

/** A channel route: messages to the app in `channel_id` become chat events of `fleet_id`. */
export const connectorRoute = z
  .object({ channel_id: z.string(), fleet_id: z.string(), created_at: epochMs })
  .meta({ id: "ConnectorRoute" });

export const routeBody = { fleet_id: uuidv7("fleet_id") };
