import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { connectorTeam, providerParam } from "./connector.ts";

const queryText = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .max(2048, { error: `${field} is too long` })
    .optional();

export const completeConnect = defineOperation({
  id: "connectors.callback",
  method: "GET",
  path: "/v1/connectors/{provider}/callback",
  summary: "Vendor redirect target of a connect",
  description:
    "No bearer: authenticated by the signed single-use `state` the connect issued (a forged, expired or spent state is 400 UZ-CONN-001, and changes nothing), and by the browser that started the connect: its `fleet_connect_<provider>` cookie, whose hash the state carries, and the console session (`fleet_session` cookie) of the person who started it; otherwise 403 UZ-CONN-010 and nothing changes. The vendor sends the browser here through the console's origin. Exchanges `code` at the vendor's token endpoint (502 UZ-SLK-022 when it refuses, 502 UZ-CONN-003 when it does not answer in time), seals the token in the vault, and sends the browser back to the console's Connectors page (303). A person who declined on the vendor's page (`error`) is sent back too, with nothing changed.",
  tags: ["Connectors"],
  scope: null,
  credentials: [],
  successStatus: 303,
  params: providerParam,
  query: { code: queryText("code"), state: queryText("state"), error: queryText("error") },
  output: z
    .object({
      status: z.enum(["connected", "declined"]),
      workspace_id: z.string(),
      provider: z.string(),
      team: connectorTeam.nullable(),
      location: z.string(),
    })
    .meta({ id: "ConnectorCallbackResult" }),
});
