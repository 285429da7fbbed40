import type { AgentFigures } from "./agent.ts";
import type { Latencies } from "./gateway-load.ts";

/** The agent suite's printout (bench/agent.ts measures): each figure, its goal, MET or MISSED. */
const ms = (value: number | undefined) => (value === undefined ? "n/a" : `${value.toFixed(1)} ms`);
const pct = (share: number | undefined) => (share === undefined ? "n/a" : `${(share * 100).toFixed(0)}%`);
const verdict = (met: boolean) => (met ? "MET" : "MISSED");
const spread = (l: Latencies) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)} (${l.count} samples)`;

function latencyLine(what: string, l: Latencies, goalMs: number, others: number | undefined): void {
  console.log(`  ${what}:`);
  console.log(
    `    ${spread(l)}; goal p99 ≤ ${goalMs} ms: ${verdict(l.p99 <= goalMs)}; others' CPU ${pct(others)}`,
  );
}

export function printAgentFigures(f: AgentFigures): void {
  console.log(
    `\nAgent executor (issue 32 §6), ${f.database}, the reference runner (executor agent) as its own process, fake vendor answering at once`,
  );
  console.log(
    `  machine load (1-min load average) along the run: ${f.load.map((l) => l.toFixed(2)).join(" → ")}`,
  );
  latencyLine(
    "message to a waiting runner → first chunk frame at a live-tail subscriber",
    f.firstChunk,
    150,
    f.others.firstChunk,
  );
  console.log(`    of which message sent → the model call at the vendor: ${spread(f.toVendor)}`);
  latencyLine(
    "gate decided (approve over REST) → the tool's request reaches the service",
    f.gate,
    100,
    f.others.gate,
  );
  console.log(`    of which the approve request answered: ${spread(f.approveAnswered)}`);
  for (const [index, round] of f.concurrent.entries()) {
    console.log(
      `  ${round.runs} runs at once on one runner process, round ${index + 1}/${f.concurrent.length} (a tool call, then a ~4 s streamed answer each):`,
    );
    const ceiling =
      f.workerCount < round.runs
        ? ` (its worker_count is ${f.workerCount}: the spec clamps a runner's worker_count into 1–64, so one runner process never holds ${round.runs} leases at once)`
        : "";
    const fill =
      round.fillSeconds === undefined
        ? ""
        : `; its ${Math.min(f.workerCount, round.runs)} slots filled ${round.fillSeconds.toFixed(1)} s after the messages`;
    console.log(
      `    ${round.processed}/${round.runs} processed in ${round.seconds.toFixed(1)} s; at most ${round.peakInFlight} in flight at once${ceiling}${fill}`,
    );
    console.log(
      `    frames lost: ${round.framesLost} runs of ${round.runs} (${round.frames} frames read); goal none: ${verdict(round.framesLost === 0)}`,
    );
    console.log(
      `    runs over their bounds (> ${f.maxSteps} model calls, > ${f.maxRunMs / 1000} s, or failed): ${round.overBounds}; goal none: ${verdict(round.overBounds === 0)}` +
        (round.failures.length > 0 ? ` (${round.failures.join(", ")})` : ""),
    );
    console.log(
      `    CPU per run: runner ${ms(round.runnerCpuMsPerRun)}, API ${ms(round.apiCpuMsPerRun)}${f.database === "PostgreSQL" ? " (PostgreSQL's own not counted)" : ""}; others' CPU ${pct(round.others)}`,
    );
  }
}
