import { z } from "zod";
import { cursorParam, queryInt } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { runnerEventItem, runnerEventTypes, runnerIdParam } from "./runner.ts";

export const listRunnerEvents = defineOperation({
  id: "runners.listEvents",
  method: "GET",
  path: "/v1/fleets/runners/{id}/events",
  summary: "List a runner's history",
  description:
    "Newest first. event_type is a comma-separated set (a union); an unrecognised tag answers 400 with no partial result.",
  tags: ["Runners"],
  scope: "runner:read",
  credentials: ["operator"],
  successStatus: 200,
  params: runnerIdParam,
  query: {
    event_type: z
      .string()
      .transform((value, ctx) => {
        const tags = value.split(",").map((tag) => tag.trim());
        const unknown = tags.filter((tag) => !(runnerEventTypes as readonly string[]).includes(tag));
        if (unknown.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `event_type has unrecognised tags: ${unknown.join(", ")}`,
          });
          return z.NEVER;
        }
        return [...new Set(tags)] as (typeof runnerEventTypes)[number][];
      })
      .optional(),
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
  },
  output: z
    .object({ items: z.array(runnerEventItem), next_cursor: z.string().nullable() })
    .meta({ id: "RunnerEventPage" }),
});
