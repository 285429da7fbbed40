import { Badge, StatusBadge } from "@fleet/ui";
import { livenessMeaning, livenessVariants, type RunnerItem, runnerStatusVariants } from "./status.ts";
import "./runner-badges.css";

/** Admin state and liveness side by side: what the operator asked, and what the host is doing. */
export function RunnerState({ runner }: { runner: Pick<RunnerItem, "status" | "liveness"> }) {
  return (
    <span className="runner-state">
      <StatusBadge status={runner.status} variants={runnerStatusVariants} />
      <span className="ui-visually-hidden">, </span>
      <span className="runner-state__liveness" data-liveness={runner.liveness}>
        <StatusBadge status={runner.liveness} variants={livenessVariants} />
        <span className="ui-visually-hidden"> ({livenessMeaning[runner.liveness]})</span>
      </span>
    </span>
  );
}

/** "Degraded" with the API's reason beside it, in words; nothing when the host meets its policy. */
export function DegradedBadge({ runner }: { runner: Pick<RunnerItem, "degraded" | "degraded_reason"> }) {
  if (!runner.degraded) return null;
  return (
    <span className="degraded" data-degraded>
      <Badge tone="warning">Degraded</Badge>
      <span className="degraded__reason">{runner.degraded_reason ?? "no reason given"}</span>
    </span>
  );
}
