import type { GatewayFigures } from "./gateway.ts";
import type { Concurrent, Latencies, Paired } from "./gateway-load.ts";

/** The gateway suite's printout (bench/gateway.ts measures). */
const ms = (value: number) => `${value.toFixed(2)} ms`;
const pct = (share: number | undefined) => (share === undefined ? "n/a" : `${(share * 100).toFixed(0)}%`);

function pairLine(what: string, pair: Paired, goal: { p50?: number; p99: number }) {
  const added = (key: "p50" | "p99") => pair.gateway[key] - pair.direct[key];
  const missed = (key: "p50" | "p99", limit: number | undefined) =>
    limit !== undefined && added(key) > limit ? ` (goal ≤ ${limit} ms: MISSED)` : "";
  const side = (l: Latencies) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)} (${l.count} calls)`;
  console.log(`  ${what}`);
  console.log(`    vendor directly:     ${side(pair.direct)}`);
  console.log(`    through the gateway: ${side(pair.gateway)}`);
  console.log(
    `    added: p50 ${ms(added("p50"))}${missed("p50", goal.p50)}, p99 ${ms(added("p99"))}${missed("p99", goal.p99)}; ` +
      `ratio p50 ${(pair.gateway.p50 / pair.direct.p50).toFixed(2)}×; others' CPU ${pct(pair.others)}` +
      (pair.failures > 0 ? `; ${pair.failures} calls failed` : ""),
  );
}

export function printGatewayFigures(f: GatewayFigures): void {
  console.log(`\nModel gateway (issue 31 §4), ${f.database}, fake vendor in the bench process`);
  console.log(
    `  machine load (1-min load average) along the run: ${f.load.map((l) => l.toFixed(2)).join(" → ")}`,
  );
  pairLine("unstreamed call, end to end:", f.unstreamed, { p50: 1, p99: 3 });
  pairLine("streamed call, time to the first chunk:", f.firstChunk, { p99: 5 });
  console.log(
    `  ${f.concurrency} concurrent streaming calls (20 chunks each), server CPU per call, ${f.rounds.length} rounds:`,
  );
  const ratios: number[] = [];
  for (const [index, round] of f.rounds.entries()) {
    const ratio = round.gateway.cpuMsPerCall / round.proxy.cpuMsPerCall;
    ratios.push(ratio);
    const side = (c: Concurrent) =>
      `${ms(c.cpuMsPerCall)} over ${c.calls} calls${c.failures > 0 ? ` (${c.failures} failed: ${JSON.stringify(c.failed)})` : ""}, others' CPU ${pct(c.others)}`;
    console.log(
      `    round ${index + 1}: gateway ${side(round.gateway)}; proxy ${side(round.proxy)}; ${ratio.toFixed(2)}×`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
  console.log(
    `    gateway / bare node:http stream proxy, median of rounds: ${median.toFixed(2)}×${median > 1.5 ? " (goal ≤ 1.5×: MISSED)" : ""}` +
      (f.database === "PostgreSQL" ? " (the API's process only: PostgreSQL's own CPU is not counted)" : ""),
  );
  const live = f.liveTail;
  const lag = (l: Latencies) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)}`;
  console.log(
    `  chunk frame → live-tail subscriber (${live.calls} streamed calls, one a lease at a time, ${live.frames} frames, others' CPU ${pct(live.others)}${live.unmatched > 0 ? `, ${live.unmatched} frames unmatched` : ""}):`,
  );
  console.log(
    `    delivery, frame made → subscriber: ${lag(live.delivery)}${live.delivery.p99 > 50 ? " (goal p99 ≤ 50 ms: MISSED)" : ""}`,
  );
  console.log(`    text lag, runner's client read the text → subscriber: ${lag(live.textLag)}`);
}
