"use client";

import { Badge, RelativeTime } from "@fleet/ui";
import type { Endpoint } from "./endpoint.ts";
import { healthTone, healthWords } from "./health.ts";
import "./webhooks.css";

/**
 * How the receiver has been answering: the last 24 hours' share of 2xx as a badge, and the latest
 * failure (when, and why) under it. Two short lines, so it reads at a phone's width.
 */
export function EndpointHealth({ health }: { health: Endpoint["health"] }) {
  return (
    <span className="webhook-health" data-health={healthTone(health)}>
      <Badge tone={healthTone(health)}>{healthWords(health)}</Badge>
      {health.last_failure ? (
        <span className="webhook-health__failure">
          Last failed <RelativeTime value={health.last_failure.at} />:{" "}
          <span className="webhook-health__reason">{health.last_failure.reason}</span>
        </span>
      ) : (
        <span className="webhook-health__failure">Never failed</span>
      )}
    </span>
  );
}
