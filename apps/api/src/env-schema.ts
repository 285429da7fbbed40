import { z } from "zod";

/**
 * The one place configuration is read. Defaults run the embedded setup: PGlite under ./.data/pglite,
 * the API on :8080, the console on :3000.
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("127.0.0.1"),
  CONSOLE_PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .default("pglite://./.data/pglite")
    .refine(
      (v) => /^(postgres(ql)?|pglite):\/\/./.test(v),
      "must be postgres://…, pglite://<dir> or pglite://memory",
    ),
  /** Where error codes are documented; each problem's docs_uri is `${DOCS_URL}#<code>`. */
  DOCS_URL: z.url().optional(),
  /** Base URL the API is reached at; defaults to http://localhost:${PORT}. */
  PUBLIC_URL: z.url().optional(),
  /** Where fleetctl finds a running API (`pnpm start` sets it); PUBLIC_URL, then PORT, when unset. */
  API_URL: z.url().optional(),
  /** Base URL of the console, used in sign-in links; defaults to http://localhost:${CONSOLE_PORT}. */
  CONSOLE_URL: z.url().optional(),
  /** HMAC key for session tokens (at least 32 characters); generated once and kept in the database when unset. */
  SESSION_SIGNING_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** How long a command-line credential from `fleetctl login` (device sign-in) lives; default 7 days. */
  FLEET_CLI_CREDENTIAL_TTL_SECONDS: z.coerce.number().int().min(300).max(2_592_000).default(604_800),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The vault's master key: 32 bytes, base64. Unset on the embedded database, one is generated once into
   * the data directory (owner-only); unset on PostgreSQL, the secret routes answer 503 UZ-VAULT-002.
   */
  FLEET_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, "base64").length === 32, "must be 32 bytes, base64-encoded")
    .optional(),
  /**
   * Dev mode (`pnpm start`): allows the `dev_none` sandbox tier and `file://` library sources, and an
   * owner's console sign-in also opens the operator pages (docs/decisions/credentials-and-sign-in.md, "Dev mode").
   */
  FLEET_DEV_MODE: z.stringbool().default(false),
  /** The process's search path, handed to the child processes the service runs (git). */
  PATH: z.string().default("/usr/bin:/bin"),
  /** How long a lease lives without a renewal (the specification's decisions: 30 s). Shorter only to demonstrate expiry. */
  FLEET_LEASE_TTL_MS: z.coerce.number().int().min(500).max(300_000).default(30_000),
  /**
   * Where the scheduler (pg-boss) keeps its state, when not in the service's own database (it then uses
   * its own schema there). PostgreSQL only.
   */
  FLEET_SCHEDULER_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), "must be a postgres:// URL")
    .optional(),
  /** The longest a request waits for the scheduler before recording the push as failed. */
  FLEET_SCHEDULER_DEADLINE_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
  /**
   * `false`: this instance delivers no webhook (no deliverer, no periodic delivery pass); its acts still
   * write the outbox, and other instances (or this one started again) deliver it. The bench holds
   * deliveries with it to time the outbox write alone (docs/decisions/webhooks.md, "Figures").
   */
  FLEET_WEBHOOK_DELIVERY: z.stringbool().default(true),
  /** How often the reconciler converges failed and drifted schedules and removes orphans. */
  FLEET_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(10_000),
  /**
   * PostgreSQL: how long a database call may wait for a free pooled connection, and how long opening
   * one may take, before the request answers 503 (docs/decisions/operations.md, "Database deadlines").
   */
  FLEET_DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** PostgreSQL: the server ends a statement, or a transaction left idle, running longer than this. */
  FLEET_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /**
   * Rate limits (docs/decisions/limits.md, "Rate limits"): token buckets refilling their quota every
   * window. `false` turns the buckets off (the in-flight ceiling stays).
   */
  FLEET_RATE_LIMITS: z.stringbool().default(true),
  FLEET_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  /** Requests per window on routes under /v1/workspaces/{workspace_id}, per workspace. */
  FLEET_RATE_LIMIT_WORKSPACE: z.coerce.number().int().min(1).max(1_000_000_000).default(3_000),
  /** Requests per window per API key (unless minted with its own `rate_limit`), or per person's sessions. */
  FLEET_RATE_LIMIT_CREDENTIAL: z.coerce.number().int().min(1).max(1_000_000_000).default(1_200),
  /**
   * Requests per window one client address (an IPv6 /64) makes to each route that takes no credential:
   * device sign-in start and poll, the sign-in link exchange, the connector callback, chat ingress and the
   * grant webhook.
   */
  FLEET_RATE_LIMIT_ADDRESS: z.coerce.number().int().min(1).max(1_000_000_000).default(300),
  /**
   * Who may say who the client is: comma-separated addresses or CIDR blocks (or `loopback`, `linklocal`,
   * `uniquelocal`) whose X-Forwarded-For is believed; `none` believes nobody. The default believes a proxy
   * on the same host (the console's server, a local nginx), which no remote client can pose as.
   */
  FLEET_TRUSTED_PROXIES: z
    .string()
    .max(4_096)
    .regex(
      /^[\w.:/, -]*$/,
      "lists addresses, CIDR blocks or loopback, linklocal, uniquelocal, comma-separated",
    )
    .default("loopback"),
  /** Device sign-ins waiting for their answer at once, instance-wide; past it, starting one answers 429. */
  FLEET_MAX_PENDING_DEVICE_SIGN_INS: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /**
   * Requests one instance serves at once; past it, 429 UZ-API-001. Health and readiness never count. 0
   * turns the ceiling off.
   */
  FLEET_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(1_000_000).default(2_048),
  /** Live (unrevoked, unexpired) API and fleet keys one tenant may hold; past it, 409 UZ-APIKEY-008. */
  FLEET_MAX_API_KEYS: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /**
   * Shutdown (SIGTERM/SIGINT; docs/deploy.md): how long the instance keeps accepting connections after it
   * starts draining (`/readyz` answers 503 meanwhile), so a load balancer takes it out of rotation before
   * its listener closes. 0 closes the listener at once.
   */
  FLEET_SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** Shutdown: how long requests in flight may take to finish before their connections are closed. */
  FLEET_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /** Live-tail streams one instance holds open at once; past it, 503 UZ-API-002 with Retry-After. */
  FLEET_MAX_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * Live-tail streams one tenant holds open on one instance; past it, 429 UZ-API-001. Below the instance cap,
   * so one tenant's streams never take another's away.
   */
  FLEET_MAX_STREAMS_PER_TENANT: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /** Live-tail streams one credential (an API key; a person's sessions together) holds open on one instance. */
  FLEET_MAX_STREAMS_PER_CREDENTIAL: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Idle milliseconds before a stream is sent a heartbeat frame. */
  FLEET_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /** Frames one resume replays at most; a larger gap is answered with `reset` (the client refetches). */
  FLEET_STREAM_REPLAY_FRAMES: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /**
   * Hours a run's frames (those carrying a lease id) stay readable in its lease review, long after the
   * replay window dropped them; the first 2,000 frames of a lease are kept.
   */
  FLEET_RUN_FRAMES_RETENTION_HOURS: z.coerce.number().int().min(1).max(8_760).default(168),
  /** Bytes a stream's socket may hold unsent before its reader counts as too slow and is dropped. */
  FLEET_STREAM_MAX_BUFFERED: z.coerce.number().int().min(1_024).max(1_073_741_824).default(1_048_576),
  /** Where the rate-limit buckets are shared when set (redis://…); else PostgreSQL, or in process on PGlite. */
  REDIS_URL: z
    .string()
    .refine((v) => /^rediss?:\/\//.test(v), "must be a redis:// or rediss:// URL")
    .optional(),
  /**
   * Serves `GET /metrics` on the API's port to a scraper presenting this bearer token (docs/decisions/operations.md,
   * "Metrics and traces"). Unset, and without FLEET_METRICS_ADDRESS, /metrics is a 404.
   */
  FLEET_METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,512}$/, "must be 16-512 printable characters without spaces")
    .optional(),
  /** `host:port` of a listener of its own that serves only /metrics (port 0: any free port). */
  FLEET_METRICS_ADDRESS: z
    .string()
    .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, "must be host:port ([v6]:port for IPv6)")
    .refine((v) => Number(v.slice(v.lastIndexOf(":") + 1)) <= 65535, "port must be at most 65535")
    .optional(),
  /**
   * The chat provider (Slack) connector: the OAuth app's client id and secret and the signing secret of
   * its event deliveries. All three set, the catalog shows it configured.
   */
  FLEET_SLACK_CLIENT_ID: z.string().min(1).max(256).optional(),
  FLEET_SLACK_CLIENT_SECRET: z.string().min(1).max(256).optional(),
  FLEET_SLACK_SIGNING_SECRET: z.string().min(1).max(256).optional(),
  /**
   * The vendor's base URL (`/oauth/v2/authorize`, `/api/<method>` beneath it). Operator configuration,
   * trusted as DATABASE_URL is: it is not put through the public-address check tenant-given URLs pass,
   * which is what lets tests and the browser suite point it at a fake vendor on 127.0.0.1.
   */
  FLEET_SLACK_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://slack.com"),
  /**
   * The API-key connector's vendor (Datadog): the site's API base URL (`/api/v1/validate` beneath it; the
   * EU or US3 site is another host). Operator configuration, trusted as FLEET_SLACK_BASE_URL is.
   */
  FLEET_DATADOG_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://api.datadoghq.com"),
  /**
   * The model gateway's named providers, reached at their own endpoints (`/chat/completions` beneath the
   * OpenAI one; `/v1/messages` beneath Anthropic's). Operator configuration, trusted as
   * FLEET_DATADOG_BASE_URL is (tests point them at a fake vendor on 127.0.0.1).
   */
  FLEET_OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://api.openai.com/v1"),
  FLEET_ANTHROPIC_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://api.anthropic.com"),
  /**
   * Dev mode only (`pnpm start` sets it): the loopback base URL of the scripted demo model (apps/runner/dev),
   * which the model gateway calls when neither the tenant nor the platform has a provider. Not a real model.
   */
  FLEET_DEV_SCRIPTED_MODEL_URL: z
    .url({ protocol: /^https?$/ })
    .refine(
      (v) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(v).hostname),
      "must be a loopback URL (127.0.0.1, localhost or [::1])",
    )
    .optional(),
  /** The longest a model call may wait for the vendor's answer (or its next streamed chunk): 504 UZ-MODEL-003. */
  FLEET_MODEL_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  /** The longest one call to a connector's vendor may take before it counts as failed (UZ-CONN-003). */
  FLEET_CONNECTOR_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** OTLP/HTTP base URL (the standard variable); traces go to `<url>/v1/traces`. Unset: no tracing. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** OTLP/HTTP URL for traces as it stands (the standard variable); wins over the base URL. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The `service.name` of the spans this instance exports. */
  OTEL_SERVICE_NAME: z.string().min(1).max(128).default("fleet-api"),
});

export type Env = z.infer<typeof envSchema>;
