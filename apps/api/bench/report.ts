import type { WrkResult } from "./wrk.ts";

export interface Measurement {
  label: string;
  result: WrkResult;
  /** Anything a reader should know next to the figure (e.g. access-log size). */
  note?: string;
}

export interface Target {
  label: string;
  /** Undefined when the inputs could not be measured (e.g. PostgreSQL unavailable). */
  value: number | undefined;
  format: (value: number) => string;
  goal: string;
  met: (value: number) => boolean;
}

export const rps = (value: number) => Math.round(value).toLocaleString("en-US");
export const ms = (value: number) => `${value.toFixed(2)} ms`;
export const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
export const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

function table(headers: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => row[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) =>
        rightAligned[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  return [render(headers), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(render)].join(
    "\n",
  );
}

export function formatMeasurements(measurements: Measurement[]): string {
  const rows = measurements.map(({ label, result, note }) => {
    const problems = result.non2xx + result.socketErrors;
    return [
      label,
      rps(result.requestsPerSec),
      ms(result.p50Ms),
      ms(result.p99Ms),
      problems === 0 ? "0" : `${problems} (non-2xx ${result.non2xx}, socket ${result.socketErrors})`,
      note ?? "",
    ];
  });
  return table(["config", "requests/s", "p50", "p99", "errors", "note"], rows, [
    false,
    true,
    true,
    true,
    true,
    false,
  ]);
}

export function formatTargets(targets: Target[]): string {
  const rows = targets.map((target) => {
    if (target.value === undefined) return [target.label, "n/a", target.goal, "not measured"];
    return [
      target.label,
      target.format(target.value),
      target.goal,
      target.met(target.value) ? "met" : "MISSED",
    ];
  });
  return table(["figure", "value", "target", "verdict"], rows, [false, true, false, false]);
}
