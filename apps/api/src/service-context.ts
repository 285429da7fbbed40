import type { DatabaseHandle } from "@fleet/db";
import type { Logger } from "pino";
import type { PrincipalCache } from "./auth/principal-cache.ts";
import { SessionSigner } from "./auth/sessions.ts";
import type { Config } from "./env.ts";
import { CoalescedRun } from "./runtime/coalesced-run.ts";
import { GateSignal } from "./runtime/gate-signal.ts";
import type { Metrics } from "./runtime/metrics.ts";
import type { ScheduleEngine } from "./runtime/schedule-engine.ts";
import { REPLAY_SECONDS, StreamHub } from "./runtime/stream-hub.ts";
import { startTracing } from "./runtime/tracing.ts";
import { resolveMasterKey, Vault } from "./runtime/vault.ts";
import { WorkSignal } from "./runtime/work-signal.ts";
import type { ChatDeliveryReport } from "./services/connectors/delivery.ts";
import { chatGates } from "./services/connectors/gates.ts";
import { allSettled } from "./services/model-gateway/settlements.ts";
import type { ServiceContext } from "./services/shared/context.ts";
import type { WebhookDeliverer, WebhookDeliveryReport } from "./services/webhook-endpoints/delivery.ts";
import { noticeFormat } from "./services/webhooks/notice-format.ts";

/** Where failures in the background are reported. */
type Warnings = Pick<Logger, "warn">;
/** Nothing runs in the background of a process without a logger (fleetctl): nothing to report. */
const UNREPORTED: Warnings = { warn: () => {} };

/**
 * What differs between the processes that call services. Every option is off by default: what fleetctl
 * and seeding need, a context on which nothing is cached, started or delivered in this process.
 */
export interface ServiceContextOptions {
  /** Where failures in the background are logged (frames not published, chat delivery, the scheduler). */
  log?: Warnings;
  /** The metrics services count into (the server's, when they are served). */
  metrics?: Metrics | null;
  /** Trace runs when an OTLP endpoint is configured (`config.tracing`). */
  tracing?: boolean;
  /**
   * Open workspace secrets with the configured master key, or with `master.key` beside an embedded
   * database (created on first use). Without, the vault holds no key: no fleetctl command touches a secret.
   */
  secrets?: boolean;
  /**
   * The principal cache of this process: a change drops its entries and waits to hear its NOTIFY back.
   * Without, nothing is cached here and the NOTIFY reaches the servers.
   */
  principals?: PrincipalCache;
  /**
   * Deliver chat answers and outgoing webhooks from this process as they are queued; without, a server's
   * periodic pass does.
   */
  chatDelivery?: boolean;
  /**
   * Run the external scheduler here, with its periodic passes (overdue gates, chat delivery) and the
   * schedules' reconciler; without, `scheduler` is null and the servers' scheduler fires.
   */
  scheduler?: boolean;
}

/** A process's services, and what of them runs in the background once started. */
export interface ServiceWiring {
  services: ServiceContext;
  /**
   * Starts what listens and runs in the background: the principal cache, the work and gate signals, the
   * stream hub, then the scheduler and the schedules' reconciler. Only a serving process calls it:
   * unstarted (fleetctl), the signals wake no one here and the hub drops what is published.
   */
  start(): Promise<void>;
  /** Answers the runners' long polls now (work, gates): part of a drain. */
  drain(): void;
  /**
   * Stops it all again, after the last request: one still in flight may push a schedule. The scheduler's
   * fires in progress finish (pg-boss's graceful stop); fires not yet taken wait for another instance.
   */
  stop(): Promise<void>;
}

/**
 * The one place the `ServiceContext` is wired, for the API server (`createApp`), fleetctl and the bench's
 * seeding alike: database, configuration, session signer, clock, vault, principal changes, the work and
 * gate signals, the stream hub, the scheduler, metrics, traces and the chat outbox. It sits beside
 * `server.ts`, above the layers it wires: `services/` must not import it, and `runtime/` imports nothing
 * of `services/` or `auth/`.
 */
export async function createServiceContext(
  config: Config,
  database: DatabaseHandle,
  options: ServiceContextOptions = {},
): Promise<ServiceWiring> {
  const now = () => Date.now();
  const log = options.log ?? UNREPORTED;
  const tracing =
    options.tracing && config.tracing !== null
      ? await startTracing(config.tracing.url, config.tracing.serviceName)
      : null;
  const principals = options.principals ?? null;
  const services: ServiceContext = {
    db: database.db,
    config,
    sessions: await SessionSigner.create(database.db, config.sessionSigningKey, now()),
    now,
    principalsChanged:
      principals === null
        ? async () => {}
        : (tag) => {
            principals.invalidate(tag);
            return principals.settled();
          },
    vault: new Vault(
      options.secrets
        ? resolveMasterKey(config.masterKey, database.dataDir, database.kind === "pglite")
        : null,
    ),
    work: new WorkSignal(),
    gates: new GateSignal(),
    streams: new StreamHub({
      replayFrames: config.streams.replayFrames,
      replaySeconds: REPLAY_SECONDS,
      runRetentionMs: config.streams.runRetentionHours * 3_600_000,
      onError: (error) => log.warn({ err: error }, "live-tail frames not published"),
    }),
    scheduler: null,
    metrics: options.metrics ?? null,
    tracing,
    chat: null,
    webhookOutbox: null,
    gateChat: chatGates,
    notices: noticeFormat,
  };
  const chatReport: ChatDeliveryReport = (failure) =>
    log.warn(
      {
        code: "UZ-SLK-030",
        messageId: failure.messageId,
        attempt: failure.attempt,
        reason: failure.reason,
        givenUp: failure.givenUp,
      },
      "chat answer delivery failed",
    );
  const webhookReport: WebhookDeliveryReport = (failure) =>
    log.warn(
      {
        endpointId: failure.endpointId,
        eventId: failure.eventId,
        attempt: failure.attempt,
        reason: failure.reason,
        givenUp: failure.givenUp,
      },
      "webhook delivery failed",
    );
  let webhookDeliverer: WebhookDeliverer | null = null;
  // The chat client, pg-boss and the periodic passes are loaded only by a process that runs them:
  // fleetctl, started once a command, would otherwise load 1.6 MB more code (a sixth of its start).
  if (options.chatDelivery) {
    const { deliverDue } = await import("./services/connectors/delivery.ts");
    services.chat = new CoalescedRun(
      () => deliverDue(services, chatReport),
      (error) => log.warn({ err: error }, "chat delivery failed"),
    );
    if (config.webhookDelivery) {
      const { WebhookDeliverer } = await import("./services/webhook-endpoints/delivery.ts");
      webhookDeliverer = new WebhookDeliverer(services, webhookReport, (error) =>
        log.warn({ err: error }, "webhook delivery failed"),
      );
      services.webhookOutbox = webhookDeliverer;
    }
  }
  const background = options.scheduler
    ? await scheduleEngine(services, database, { chat: chatReport, webhooks: webhookReport }, log)
    : null;
  services.scheduler = background?.engine ?? null;
  let reconciler: NodeJS.Timeout | null = null;
  return {
    services,
    async start() {
      await principals?.start(database);
      await services.work.start(database);
      await services.gates.start(database);
      await services.streams.start(database);
      if (background === null) return;
      await background.engine.start();
      reconciler = setInterval(() => {
        background.reconcile().catch((error: unknown) => log.warn({ err: error }, "reconcile failed"));
      }, config.reconcileIntervalMs);
      reconciler.unref();
    },
    drain() {
      services.work.drain();
      services.gates.drain();
    },
    async stop() {
      if (reconciler !== null) clearInterval(reconciler);
      // Claims nothing more; its attempts in flight are recorded before the database closes, or abandoned.
      await webhookDeliverer?.stop();
      // Gateway calls answered before the drain are charged before the database closes.
      await allSettled(database.db);
      await background?.engine.stop();
      await services.work.stop();
      await services.gates.stop();
      await services.streams.stop();
      await principals?.stop();
    },
  };
}

/**
 * The external scheduler: schedules' fires, and the periodic passes (overdue gates, chat answers, webhook
 * deliveries and pruning, runners gone quiet);
 * with the reconciler's pass, which pushes to it the schedules it does not hold.
 */
async function scheduleEngine(
  services: ServiceContext,
  database: DatabaseHandle,
  reports: { chat: ChatDeliveryReport; webhooks: WebhookDeliveryReport },
  log: Warnings,
): Promise<{ engine: ScheduleEngine; reconcile: () => Promise<void> }> {
  const [
    { ScheduleEngine },
    { GATE_SWEEP_EVERY_MS, GATE_SWEEP_QUEUE, sweepOverdueGates },
    { CHAT_DELIVERY_EVERY_MS, CHAT_DELIVERY_QUEUE, deliverDue },
    { fireSchedule, reconcileSchedules },
    { WEBHOOK_DELIVERY_EVERY_MS, WEBHOOK_DELIVERY_QUEUE, deliverDueWebhooks },
    { WEBHOOK_PRUNE_EVERY_MS, WEBHOOK_PRUNE_QUEUE, pruneWebhookEvents },
    { RUNNER_OFFLINE_EVERY_MS, RUNNER_OFFLINE_QUEUE, sweepOfflineRunners },
  ] = await Promise.all([
    import("./runtime/schedule-engine.ts"),
    import("./services/approvals/sweep.ts"),
    import("./services/connectors/delivery.ts"),
    import("./services/schedules/sync.ts"),
    import("./services/webhook-endpoints/delivery.ts"),
    import("./services/webhook-endpoints/prune-events.ts"),
    import("./services/runners/offline-sweep.ts"),
  ]);
  const { config } = services;
  const engine = new ScheduleEngine(database.shared, {
    url: config.schedulerUrl,
    deadlineMs: config.schedulerDeadlineMs,
    onFire: (data, sentAt) => fireSchedule(services, data, sentAt),
    onError: (error) => log.warn({ err: error }, "scheduler error"),
    periodic: [
      {
        queue: GATE_SWEEP_QUEUE,
        everyMs: GATE_SWEEP_EVERY_MS,
        run: () =>
          sweepOverdueGates(services).then(
            () => {},
            (error: unknown) => log.warn({ err: error }, "gate sweep failed"),
          ),
      },
      {
        queue: CHAT_DELIVERY_QUEUE,
        everyMs: CHAT_DELIVERY_EVERY_MS,
        run: () =>
          deliverDue(services, reports.chat).then(
            () => {},
            (error: unknown) => log.warn({ err: error }, "chat delivery failed"),
          ),
      },
      {
        queue: WEBHOOK_PRUNE_QUEUE,
        everyMs: WEBHOOK_PRUNE_EVERY_MS,
        run: () =>
          pruneWebhookEvents(services).then(
            () => {},
            (error: unknown) => log.warn({ err: error }, "webhook event pruning failed"),
          ),
      },
      {
        queue: RUNNER_OFFLINE_QUEUE,
        everyMs: RUNNER_OFFLINE_EVERY_MS,
        run: () =>
          sweepOfflineRunners(services).then(
            () => {},
            (error: unknown) => log.warn({ err: error }, "runner offline sweep failed"),
          ),
      },
      // An instance started with FLEET_WEBHOOK_DELIVERY=false delivers no webhook: others do.
      ...(config.webhookDelivery
        ? [
            {
              queue: WEBHOOK_DELIVERY_QUEUE,
              everyMs: WEBHOOK_DELIVERY_EVERY_MS,
              // The instance's deliverer claims (its window keeps going on its own); without one, a pass here.
              run: async () => {
                if (services.webhookOutbox) return services.webhookOutbox.kick();
                await deliverDueWebhooks(services, reports.webhooks).catch((error: unknown) =>
                  log.warn({ err: error }, "webhook delivery failed"),
                );
              },
            },
          ]
        : []),
    ],
  });
  return { engine, reconcile: () => reconcileSchedules(services) };
}
