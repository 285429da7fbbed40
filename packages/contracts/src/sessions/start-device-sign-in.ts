import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { clientHost, clientName } from "./device-sign-in.ts";

export const startDeviceSignIn = defineOperation({
  id: "sessions.startDeviceSignIn",
  method: "POST",
  path: "/v1/auth/sessions",
  summary: "Start a command-line sign-in",
  description:
    "Starts the device sign-in of RFC 8628 for a command-line client: the answer carries a device code the client keeps and polls `POST /v1/auth/sessions/token` with, and a short user code the person compares and approves on the console's verification page. `client_name` and `client_host` are shown to that person as the client reported them. Valid for 10 minutes; poll no faster than `interval` seconds.",
  tags: ["Identity"],
  scope: null,
  credentials: [],
  successStatus: 201,
  headers: { "cache-control": "no-store" },
  body: { client_name: clientName, client_host: clientHost.optional() },
  output: z
    .object({
      device_code: z.string(),
      user_code: z.string(),
      verification_uri: z.string(),
      verification_uri_complete: z.string(),
      /** Seconds until the codes expire. */
      expires_in: z.number().int(),
      /** Seconds to wait between polls. */
      interval: z.number().int(),
    })
    .meta({ id: "DeviceAuthorization" }),
});
