import { type Env, envSchema } from "./env-schema.ts";

/** The configuration the process runs with, read once from the environment (`env-schema.ts`). */
export interface Config {
  port: number;
  host: string;
  consolePort: number;
  databaseUrl: string;
  publicUrl: string;
  /**
   * Where fleetctl's commands that speak to a running API (login, whoami, send, approve…) find it, when
   * the environment says: API_URL, else PUBLIC_URL, else PORT on localhost. Null when none is set (then
   * the saved credential's API, else http://localhost:8080).
   */
  cliApiUrl: string | null;
  consoleUrl: string;
  docsUrl: string;
  sessionSigningKey: string | undefined;
  masterKey: Buffer | undefined;
  sessionTtlSeconds: number;
  cliCredentialTtlSeconds: number;
  logLevel: Env["LOG_LEVEL"];
  devMode: boolean;
  searchPath: string;
  leaseTtlMs: number;
  schedulerUrl: string | undefined;
  schedulerDeadlineMs: number;
  reconcileIntervalMs: number;
  /** Whether this instance delivers webhooks (`FLEET_WEBHOOK_DELIVERY`). */
  webhookDelivery: boolean;
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  maxApiKeys: number;
  /** Proxies whose X-Forwarded-For names the client (Fastify's `trustProxy`); empty: none. */
  trustedProxies: string[];
  /** Device sign-ins waiting for their answer at once, instance-wide. */
  maxPendingDeviceSignIns: number;
  rateLimits: {
    enabled: boolean;
    windowMs: number;
    workspace: number;
    credential: number;
    /** Per client address and route, for calls with no credential. */
    address: number;
    maxInFlight: number;
    redisUrl: string | undefined;
  };
  shutdown: { delayMs: number; graceMs: number };
  metrics: {
    /** The bearer token /metrics on the API's port takes; null: not served there. */
    token: string | null;
    /** A listener of its own for /metrics; null: none. */
    address: { host: string; port: number } | null;
  };
  /** Where spans are exported (OTLP/HTTP, JSON); null: no tracing, and the SDK is never loaded. */
  tracing: { url: string; serviceName: string } | null;
  streams: {
    max: number;
    maxPerTenant: number;
    maxPerCredential: number;
    heartbeatMs: number;
    maxBuffered: number;
    replayFrames: number;
    /** Hours the lease review keeps a run's frames. */
    runRetentionHours: number;
  };
  connectors: {
    slack: {
      clientId: string | null;
      clientSecret: string | null;
      signingSecret: string | null;
      /** No trailing slash. */
      baseUrl: string;
    };
    /** The API-key connector's vendor site (no trailing slash). */
    datadog: { baseUrl: string };
    deadlineMs: number;
  };
  /**
   * The model gateway: the named providers' endpoints (no trailing slash) and the vendor deadline; in dev
   * mode, the scripted demo model's loopback base URL (null: none), used when no provider is configured.
   */
  modelGateway: {
    openaiBaseUrl: string;
    anthropicBaseUrl: string;
    deadlineMs: number;
    devScriptedModelUrl: string | null;
  };
}

export class ConfigError extends Error {}

/** The database deadlines of the configuration, as `openDatabase` takes them. */
export function databaseLimits(config: Config) {
  return { connectTimeoutMs: config.dbConnectTimeoutMs, statementTimeoutMs: config.dbStatementTimeoutMs };
}

/** Reads and validates configuration; a bad value throws one line naming the variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const env = parsed.data;
  if (env.FLEET_DEV_SCRIPTED_MODEL_URL !== undefined && !env.FLEET_DEV_MODE) {
    throw new ConfigError(
      "invalid configuration: FLEET_DEV_SCRIPTED_MODEL_URL is accepted only with FLEET_DEV_MODE=true",
    );
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  return {
    port: env.PORT,
    host: env.HOST,
    consolePort: env.CONSOLE_PORT,
    databaseUrl: env.DATABASE_URL,
    publicUrl,
    cliApiUrl:
      (env.API_URL ?? env.PUBLIC_URL ?? (source.PORT ? `http://localhost:${env.PORT}` : undefined))?.replace(
        /\/$/,
        "",
      ) ?? null,
    consoleUrl: (env.CONSOLE_URL ?? `http://localhost:${env.CONSOLE_PORT}`).replace(/\/$/, ""),
    docsUrl: env.DOCS_URL ?? `${publicUrl}/docs/errors`,
    sessionSigningKey: env.SESSION_SIGNING_KEY,
    masterKey: env.FLEET_MASTER_KEY === undefined ? undefined : Buffer.from(env.FLEET_MASTER_KEY, "base64"),
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    cliCredentialTtlSeconds: env.FLEET_CLI_CREDENTIAL_TTL_SECONDS,
    logLevel: env.LOG_LEVEL,
    devMode: env.FLEET_DEV_MODE,
    searchPath: env.PATH,
    leaseTtlMs: env.FLEET_LEASE_TTL_MS,
    schedulerUrl: env.FLEET_SCHEDULER_URL,
    schedulerDeadlineMs: env.FLEET_SCHEDULER_DEADLINE_MS,
    reconcileIntervalMs: env.FLEET_RECONCILE_INTERVAL_MS,
    webhookDelivery: env.FLEET_WEBHOOK_DELIVERY,
    dbConnectTimeoutMs: env.FLEET_DB_CONNECT_TIMEOUT_MS,
    dbStatementTimeoutMs: env.FLEET_DB_STATEMENT_TIMEOUT_MS,
    maxApiKeys: env.FLEET_MAX_API_KEYS,
    trustedProxies: trustedProxies(env.FLEET_TRUSTED_PROXIES),
    maxPendingDeviceSignIns: env.FLEET_MAX_PENDING_DEVICE_SIGN_INS,
    rateLimits: {
      enabled: env.FLEET_RATE_LIMITS,
      windowMs: env.FLEET_RATE_LIMIT_WINDOW_SECONDS * 1000,
      workspace: env.FLEET_RATE_LIMIT_WORKSPACE,
      credential: env.FLEET_RATE_LIMIT_CREDENTIAL,
      address: env.FLEET_RATE_LIMIT_ADDRESS,
      maxInFlight: env.FLEET_MAX_IN_FLIGHT,
      redisUrl: env.REDIS_URL,
    },
    shutdown: { delayMs: env.FLEET_SHUTDOWN_DELAY_MS, graceMs: env.FLEET_SHUTDOWN_GRACE_MS },
    metrics: {
      token: env.FLEET_METRICS_TOKEN ?? null,
      address: env.FLEET_METRICS_ADDRESS === undefined ? null : hostPort(env.FLEET_METRICS_ADDRESS),
    },
    tracing: tracesUrl(env) === null ? null : { url: tracesUrl(env)!, serviceName: env.OTEL_SERVICE_NAME },
    streams: {
      max: env.FLEET_MAX_STREAMS,
      maxPerTenant: env.FLEET_MAX_STREAMS_PER_TENANT,
      maxPerCredential: env.FLEET_MAX_STREAMS_PER_CREDENTIAL,
      heartbeatMs: env.FLEET_STREAM_HEARTBEAT_MS,
      maxBuffered: env.FLEET_STREAM_MAX_BUFFERED,
      replayFrames: env.FLEET_STREAM_REPLAY_FRAMES,
      runRetentionHours: env.FLEET_RUN_FRAMES_RETENTION_HOURS,
    },
    connectors: {
      slack: {
        clientId: env.FLEET_SLACK_CLIENT_ID ?? null,
        clientSecret: env.FLEET_SLACK_CLIENT_SECRET ?? null,
        signingSecret: env.FLEET_SLACK_SIGNING_SECRET ?? null,
        baseUrl: env.FLEET_SLACK_BASE_URL.replace(/\/$/, ""),
      },
      datadog: { baseUrl: env.FLEET_DATADOG_BASE_URL.replace(/\/$/, "") },
      deadlineMs: env.FLEET_CONNECTOR_DEADLINE_MS,
    },
    modelGateway: {
      openaiBaseUrl: env.FLEET_OPENAI_BASE_URL.replace(/\/$/, ""),
      anthropicBaseUrl: env.FLEET_ANTHROPIC_BASE_URL.replace(/\/$/, ""),
      deadlineMs: env.FLEET_MODEL_DEADLINE_MS,
      devScriptedModelUrl: env.FLEET_DEV_SCRIPTED_MODEL_URL?.replace(/\/$/, "") ?? null,
    },
  };
}

function hostPort(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon);
  return { host: host.startsWith("[") ? host.slice(1, -1) : host, port: Number(address.slice(colon + 1)) };
}

/** The OTLP traces URL as the OpenTelemetry specification derives it from its two variables. */
function tracesUrl(env: Env): string | null {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined) return null;
  return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, "")}/v1/traces`;
}

/** `FLEET_TRUSTED_PROXIES` as a list; `none` (or nothing) believes no proxy. */
function trustedProxies(value: string): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  return entries.length === 1 && entries[0] === "none" ? [] : entries;
}
