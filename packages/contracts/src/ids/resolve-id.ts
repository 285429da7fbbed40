import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

/** The kinds of id a link may carry alone, and the scope each needs to be found. */
export const idKinds = ["fleet", "event", "gate"] as const;
export type IdKind = (typeof idKinds)[number];

/** Where an id lives: enough to build the address of its page. */
export const idPlace = z
  .object({
    kind: z.enum(idKinds),
    /** The id as stored (lower case, whatever the spelling asked). */
    id: z.string(),
    workspace_id: z.string(),
    /** The fleet itself, the event's fleet, or the gate's fleet. */
    fleet_id: z.string(),
    /** The event itself, or the run a gate opened in; null for a fleet and a gate no run opened (a grant's). */
    event_id: z.string().nullable(),
  })
  .meta({ id: "IdPlace" });
export type IdPlace = z.infer<typeof idPlace>;

export const resolveId = defineOperation({
  id: "ids.resolve",
  method: "GET",
  path: "/v1/ids/{id}",
  summary: "Find where an id belongs",
  description:
    "Which workspace (and fleet) a fleet, event or approval gate id belongs to, so a link that carries the id alone can open its page. Only what the caller may read is found: a fleet or event needs fleet:read, a gate approval:read. Any other id (unknown, another tenant's, a kind the caller may not read) is 404 UZ-ID-001 alike. Upper-case spelling names the same id.",
  tags: ["Ids"],
  // Checked per kind by the service: a kind the caller may not read is as absent as an unknown id.
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  params: { id: uuidv7("id") },
  output: idPlace,
});
