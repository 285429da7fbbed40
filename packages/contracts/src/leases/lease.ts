import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { leaseKinds } from "../runners/runner.ts";

/** A lease as its holder receives it: the work, and the token every fenced write must carry. */
export const lease = z
  .object({
    lease_id: z.string(),
    fleet_id: z.string(),
    workspace_id: z.string(),
    event_id: z.string(),
    fencing_token: z.number().int(),
    kind: z.enum(leaseKinds),
    expires_at: epochMs,
    event: z.object({ event_type: z.string(), actor: z.string(), request_json: z.string() }),
    fleet: z.object({
      name: z.string(),
      instructions: z.string(),
      /** Names of the workspace secrets the fleet declared; their values never travel here. */
      credentials: z.array(z.string()),
      /** The tools the fleet declared, by name. */
      tools: z.array(z.string()),
      /**
       * The declared tools a gate is opened for before each call: those marked `approval: required` and
       * those a rule of the workspace's approval policy names (`match.gate_kinds` holding `tool.<name>`).
       * Absent from a service that predates it (read as none); a runner that predates it ignores it.
       */
      tool_approvals: z.array(z.string()).optional(),
      /** Each declared tool's `blast_radius` from the definition, by name; tools without one are absent. */
      tool_blast_radius: z.record(z.string(), z.string()).optional(),
      /** The definition's `agent.max_steps`; absent when it sets none (the runner's default applies). */
      max_steps: z.number().int().optional(),
      network_hosts: z.array(z.string()),
      /**
       * The MCP servers the fleet declared (reached over Streamable HTTP on a host of network_hosts):
       * `approval` gates every tool of the server, `tool_approvals` names its gated tools, `headers` may
       * hold `{{secrets.NAME.field}}` placeholders the runner fills. Absent from an older service.
       */
      mcp_servers: z
        .array(
          z.object({
            name: z.string(),
            url: z.string(),
            approval: z.enum(["required"]).nullable(),
            tool_approvals: z.array(z.string()),
            headers: z.record(z.string(), z.string()).optional(),
          }),
        )
        .optional(),
    }),
  })
  .meta({ id: "Lease" });
export type Lease = z.infer<typeof lease>;

export const leaseIdParam = { lease_id: uuidv7("lease_id") };

/** A fencing token as fenced writes carry it. */
export const fencingToken = z
  .number({ error: "fencing_token must be an integer" })
  .int({ error: "fencing_token must be an integer" })
  .min(0, { error: "fencing_token must be at least 0" });
