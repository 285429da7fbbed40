import { spawn } from "node:child_process";
import { join } from "node:path";

const apiDir = join(import.meta.dirname, "..");

/** What a `fleetctl` run printed, and how it exited. */
export interface FleetctlRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `fleetctl <args>` as a child process, as a person would from a terminal; `onStderr` sees what it
 * tells the person as it goes (the sign-in code, for one).
 */
export function runFleetctl(
  args: string[],
  env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" },
  onStderr: (text: string) => void = () => {},
): Promise<FleetctlRun> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/fleetctl.ts", ...args], {
    cwd: apiDir,
    env,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr(stderr);
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}
