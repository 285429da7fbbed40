import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { providerParam } from "./connector.ts";

const header = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .max(256, { error: `${name} is too long` })
    .optional();

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max, { error: `${field} is too long` })
    .optional();

export const receiveEvent = defineOperation({
  id: "connectors.receiveEvent",
  method: "POST",
  path: "/v1/connectors/{provider}/events",
  summary: "Signed events and interactions ingress of a chat provider",
  description:
    'The vendor\'s deliveries; no bearer. Signed with the deployment\'s signing secret: X-Slack-Request-Timestamp (Unix seconds) and X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:" + timestamp + ":" + raw body)>; a timestamp more than 300 s away is 401 UZ-SLK-011, a signature that does not verify 401 UZ-SLK-010 (compared in constant time). `url_verification` answers `{challenge}`. An event (`event_callback`) from a team no workspace has connected is acknowledged 200 `{status: "ignored", error_code: "UZ-SLK-020"}`; a delivery whose event id was seen is answered `{status: "duplicate"}` and has no effect. A message to the app in a routed channel (an `app_mention`, or a direct message) becomes a `chat` event of the channel\'s fleet, whose answer is posted in the thread. An interaction (`block_actions`, sent as the envelope itself or as `{payload: "<json>"}`, in JSON or, as the vendor sends it, form-encoded `payload=<json>`) with an Approve or Deny button answers the approval gate it was posted for. The envelope is open: fields beyond these are accepted and ignored.',
  tags: ["Connectors"],
  scope: null,
  credentials: [],
  successStatus: 200,
  bodyLimit: 256 * 1024,
  openBody: true,
  formBody: true,
  params: providerParam,
  requestHeaders: {
    x_slack_request_timestamp: header("x-slack-request-timestamp"),
    x_slack_signature: header("x-slack-signature"),
  },
  body: {
    type: text("type", 64),
    token: text("token", 256),
    challenge: text("challenge", 1024),
    team_id: text("team_id", 64),
    event_id: text("event_id", 128),
    event: z.looseObject({}).optional(),
    payload: text("payload", 200_000),
  },
  output: z
    .object({
      status: z.enum(["ok", "ignored", "duplicate"]).optional(),
      challenge: z.string().optional(),
      error_code: z.string().optional(),
      event_id: z.string().optional(),
    })
    .meta({ id: "ConnectorDeliveryResult" }),
});
