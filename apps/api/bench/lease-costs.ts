import { readFileSync } from "node:fs";
import { openDatabase } from "@fleet/db";

/** CPU time (user + system) of a process, in ms, from /proc (Linux); 0 when it cannot be read. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

export interface CostSnapshot {
  apiCpuMs: number;
  /** Each backend's CPU so far, by pid. */
  pgCpuMs: Map<number, number>;
  commits: number;
}

/** The backends' CPU between two snapshots (a backend that started meanwhile counts whole). */
export function backendsCpuMs(before: CostSnapshot, after: CostSnapshot): number {
  let sum = 0;
  for (const [pid, ms] of after.pgCpuMs) sum += ms - (before.pgCpuMs.get(pid) ?? 0);
  return sum;
}

/**
 * What the machine spent, independent of how much of it other processes took: the API's CPU, the CPU of
 * the database's backends (read from /proc by their pids; the bench runs beside the server), and the
 * database's commits. Differences of two snapshots over a run, divided by its cycles, are a cycle's cost.
 */
export async function costSnapshot(url: string, apiPid: number | undefined): Promise<CostSnapshot> {
  const database = await openDatabase(url, { max: 1 });
  try {
    const rows = await database.query<{ pid: number; commits: string }>(
      `select a.pid, d.xact_commit::text as commits
       from pg_stat_activity a join pg_stat_database d on d.datname = a.datname
       where a.datname = current_database() and a.pid <> pg_backend_pid()`,
    );
    return {
      apiCpuMs: apiPid === undefined ? 0 : cpuMs(apiPid),
      pgCpuMs: new Map(rows.map((row) => [Number(row.pid), cpuMs(Number(row.pid))])),
      commits: Number(rows[0]?.commits ?? 0),
    };
  } finally {
    await database.close();
  }
}
