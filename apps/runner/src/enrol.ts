import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { enrollRunner } from "@fleet/contracts/runners/enroll-runner";
import { z } from "zod";
import { ConfigError, type RunnerConfig } from "./env.ts";
import type { HttpClient } from "./http.ts";
import type { Logger } from "./log.ts";

/** What the token file holds: the runner's identity and its token (the file is the owner's alone). */
const tokenFile = z.object({
  runner_id: z.string(),
  host_id: z.string(),
  api_url: z.string(),
  runner_token: z.string().startsWith("agt_r"),
  enrolled_at: z.number().int(),
});
export type TokenFile = z.infer<typeof tokenFile>;

export interface Credentials {
  token: string;
  /** Known when the runner enrolled itself, now or earlier. */
  runnerId: string | undefined;
  source: "environment" | "token file" | "enrolment";
}

/**
 * Reads the token file, refusing one that others can read: like ssh with a private key, a credential left
 * readable is not used (chmod 600 and start again).
 */
export function readTokenFile(path: string): TokenFile | null {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return null;
  }
  if ((mode & 0o077) !== 0) {
    throw new ConfigError(
      `token file ${path} is readable by others (mode ${(mode & 0o777).toString(8)}); chmod 600 it`,
    );
  }
  const parsed = tokenFile.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new ConfigError(`token file ${path} is not a runner token file`);
  return parsed.data;
}

/** Writes the token file atomically with mode 600, in a directory of mode 700 when it creates one. */
export function writeTokenFile(path: string, content: TokenFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * The runner's token: `FLEET_RUNNER_TOKEN`; else the token file an earlier enrolment left; else a fresh
 * enrolment with `FLEET_OPERATOR_TOKEN` (`POST /v1/runners`), kept in the token file. A token file is
 * never replaced by enrolling again: a runner whose token stops working (revoked) must not re-enrol itself.
 */
export async function resolveCredentials(
  config: RunnerConfig,
  http: HttpClient,
  log: Logger,
): Promise<Credentials> {
  if (config.runnerToken !== undefined)
    return { token: config.runnerToken, runnerId: undefined, source: "environment" };
  const saved = readTokenFile(config.tokenFile);
  if (saved !== null) return { token: saved.runner_token, runnerId: saved.runner_id, source: "token file" };
  const enrolment = config.enrolment;
  if (enrolment === undefined) {
    throw new ConfigError(
      "no runner token: set FLEET_RUNNER_TOKEN, or FLEET_OPERATOR_TOKEN (runner:write) to enrol this host",
    );
  }
  // Not idempotent (a repeat enrols a second runner): retried only when it cannot have landed.
  const enrolled = await http.call<z.output<typeof enrollRunner.output>>(enrollRunner, {
    token: enrolment.operatorToken,
    body: { host_id: enrolment.hostId, assigned_policy: enrolment.policy, labels: enrolment.labels },
    retry: "unsent",
    attempts: 10,
  });
  writeTokenFile(config.tokenFile, {
    runner_id: enrolled.runner_id,
    host_id: enrolled.host_id,
    api_url: config.apiUrl,
    runner_token: enrolled.runner_token,
    enrolled_at: enrolled.created_at,
  });
  log.info("enrolled", {
    runner_id: enrolled.runner_id,
    host_id: enrolled.host_id,
    sandbox_tier: enrolled.assigned_policy.sandbox_tier,
    token_file: config.tokenFile,
  });
  return { token: enrolled.runner_token, runnerId: enrolled.runner_id, source: "enrolment" };
}
