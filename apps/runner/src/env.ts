import { homedir, hostname } from "node:os";
import { join } from "node:path";
import { MAX_WAIT_MS, networkPolicies, runnerLabel, sandboxTiers } from "@fleet/contracts";
import { z } from "zod";

const positiveMs = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * The one place the runner reads its environment. Either a runner token (`FLEET_RUNNER_TOKEN`), or a
 * token file left by an earlier enrolment, or an operator token to enrol with (`FLEET_OPERATOR_TOKEN`).
 */
const schema = z.object({
  FLEET_API_URL: z.url().default("http://127.0.0.1:8080"),
  FLEET_RUNNER_TOKEN: z
    .string()
    .refine((token) => token.startsWith("agt_r"), "must be a runner token (agt_r…)")
    .optional(),
  /** Enrolment: an operator token holding runner:write, used once when no runner token is at hand. */
  FLEET_OPERATOR_TOKEN: z.string().min(1).optional(),
  FLEET_RUNNER_HOST_ID: z.string().min(1).max(253).optional(),
  /** Where an enrolled runner keeps its token (mode 600); defaults under the user's state directory. */
  FLEET_RUNNER_TOKEN_FILE: z.string().min(1).optional(),
  FLEET_RUNNER_SANDBOX_TIER: z.enum(sandboxTiers).default("landlock_full"),
  FLEET_RUNNER_NETWORK_POLICY: z.enum(networkPolicies).default("allow_all"),
  FLEET_RUNNER_WORKER_COUNT: z.coerce.number().int().min(1).max(64).default(1),
  /** Comma-separated labels an enrolment asks for; fleets that require labels lease only to runners having them. */
  FLEET_RUNNER_LABELS: z
    .string()
    .default("")
    .transform((text) =>
      text
        .split(",")
        .map((label) => label.trim())
        .filter((label) => label !== ""),
    )
    .pipe(z.array(runnerLabel).max(32)),
  /** `echo`, `agent` or `auto` (built in), or a path to a module exporting `createExecutor` (see README). */
  FLEET_RUNNER_EXECUTOR: z.string().min(1).default("echo"),
  /** How long the echo executor works before answering, publishing progress meanwhile (demos, tests). */
  FLEET_RUNNER_ECHO_DELAY_MS: positiveMs(0, 3_600_000, 0),
  /**
   * The agent executor's bounds: the most model calls (steps) a run may make whatever its definition's
   * `agent.max_steps` says (a definition that says none gets 16), and the run's time.
   */
  FLEET_RUNNER_AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(100).default(64),
  FLEET_RUNNER_AGENT_MAX_MS: positiveMs(1_000, 3_600_000, 600_000),
  /** How long one acquire long-polls; the service caps it at 30 s. */
  FLEET_RUNNER_WAIT_MS: positiveMs(0, MAX_WAIT_MS, 20_000),
  FLEET_RUNNER_HEARTBEAT_MS: positiveMs(100, 60_000, 10_000),
  /** On SIGTERM, how long held leases may still finish before they are given up. */
  FLEET_RUNNER_SHUTDOWN_GRACE_MS: positiveMs(0, 600_000, 20_000),
  FLEET_RUNNER_LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
  XDG_STATE_HOME: z.string().min(1).optional(),
  /** Searched for `bwrap` by the capability probe. */
  PATH: z.string().default(""),
});

export type Env = z.infer<typeof schema>;

export interface Enrolment {
  operatorToken: string;
  hostId: string;
  policy: {
    sandbox_tier: Env["FLEET_RUNNER_SANDBOX_TIER"];
    network_policy: Env["FLEET_RUNNER_NETWORK_POLICY"];
    worker_count: number;
  };
  labels: string[];
}

export interface RunnerConfig {
  apiUrl: string;
  runnerToken: string | undefined;
  hostId: string;
  tokenFile: string;
  enrolment: Enrolment | undefined;
  executor: string;
  echoDelayMs: number;
  agentMaxSteps: number;
  agentMaxRunMs: number;
  waitMs: number;
  heartbeatMs: number;
  shutdownGraceMs: number;
  logLevel: Env["FLEET_RUNNER_LOG_LEVEL"];
  /** PATH, for the bubblewrap probe. */
  path: string;
}

export class ConfigError extends Error {}

/** Reads and validates configuration; a bad value throws one line naming the variable (never its value). */
export function loadConfig(source: Record<string, string | undefined> = process.env): RunnerConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const env = parsed.data;
  const hostId = env.FLEET_RUNNER_HOST_ID ?? hostname();
  const stateDir = env.XDG_STATE_HOME ?? join(homedir(), ".local", "state");
  const safeHost = hostId.replace(/[^A-Za-z0-9._-]/g, "_");
  return {
    apiUrl: env.FLEET_API_URL.replace(/\/+$/, ""),
    runnerToken: env.FLEET_RUNNER_TOKEN,
    hostId,
    tokenFile: env.FLEET_RUNNER_TOKEN_FILE ?? join(stateDir, "fleet-runner", `${safeHost}.json`),
    enrolment:
      env.FLEET_OPERATOR_TOKEN === undefined
        ? undefined
        : {
            operatorToken: env.FLEET_OPERATOR_TOKEN,
            hostId,
            policy: {
              sandbox_tier: env.FLEET_RUNNER_SANDBOX_TIER,
              network_policy: env.FLEET_RUNNER_NETWORK_POLICY,
              worker_count: env.FLEET_RUNNER_WORKER_COUNT,
            },
            labels: env.FLEET_RUNNER_LABELS,
          },
    executor: env.FLEET_RUNNER_EXECUTOR,
    echoDelayMs: env.FLEET_RUNNER_ECHO_DELAY_MS,
    agentMaxSteps: env.FLEET_RUNNER_AGENT_MAX_STEPS,
    agentMaxRunMs: env.FLEET_RUNNER_AGENT_MAX_MS,
    waitMs: env.FLEET_RUNNER_WAIT_MS,
    heartbeatMs: env.FLEET_RUNNER_HEARTBEAT_MS,
    shutdownGraceMs: env.FLEET_RUNNER_SHUTDOWN_GRACE_MS,
    logLevel: env.FLEET_RUNNER_LOG_LEVEL,
    path: env.PATH,
  };
}
