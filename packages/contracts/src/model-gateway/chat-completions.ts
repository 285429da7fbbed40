import { z } from "zod";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";

/** Request bodies to the gateway are capped at 1 MiB (413 UZ-REQ-006 beyond). */
export const MODEL_BODY_LIMIT = 1024 * 1024;
/** Calls one lease may have open at once on one instance; the next is 429 UZ-MODEL-007. */
export const MODEL_CALLS_PER_LEASE = 8;
/** The most an unstreamed vendor answer may hold; past it the call is 502 (a vendor's answer is read whole). */
export const MODEL_ANSWER_MAX_BYTES = 16 * 1024 * 1024;
/** The most one streamed vendor answer may send; past it the stream ends with an error frame. */
export const MODEL_STREAM_MAX_BYTES = 64 * 1024 * 1024;

/** The fencing token of a gateway call, in the `Fleet-Fencing-Token` header (its body is the vendor's). */
export const fencingHeader = {
  fleet_fencing_token: z.coerce
    .number({ error: "Fleet-Fencing-Token must be an integer" })
    .int({ error: "Fleet-Fencing-Token must be an integer" })
    .min(0, { error: "Fleet-Fencing-Token must be at least 0" }),
};

export const chatCompletions = defineOperation({
  id: "modelGateway.chatCompletions",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/model/chat/completions",
  summary: "Call the fleet's model (OpenAI chat completions)",
  description:
    "An OpenAI-compatible chat completion through the control plane: point an OpenAI client at `…/leases/{lease_id}/model` with the runner token as its key and the lease's fencing token in `Fleet-Fencing-Token`. The provider and model are the tenant's (or the platform default's); the body's `model` is ignored. The answer is the vendor's own JSON, or with `stream: true` its Server-Sent Events; for an anthropic provider the request is translated to its Messages API and the answer (and stream) back to this wire (parts it cannot translate, such as images: 400 UZ-MODEL-009). The call is metered from the vendor's usage, priced from the catalogue and counted on the run. A superseded holder gets 409 UZ-RUN-005 and a run over budget 409 UZ-BUDGET-001, before anything is forwarded. Body at most 1 MiB; at most 8 calls open per lease.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409, 429, 502, 504],
  params: leaseIdParam,
  requestHeaders: fencingHeader,
  body: {
    messages: z.array(z.unknown(), { error: "messages must be an array" }),
    model: z.string().max(200).optional(),
    stream: z.boolean({ error: "stream must be a boolean" }).optional(),
  },
  openBody: true,
  relay: true,
  bodyLimit: MODEL_BODY_LIMIT,
  output: z.unknown().meta({ description: "The vendor's OpenAI chat completion, as it answered." }),
});
