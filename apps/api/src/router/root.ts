import { type ProcedureMeta, router } from "../trpc.ts";
import { activityRouter } from "./activity/router.ts";
import { apiKeysRouter } from "./api-keys/router.ts";
import { approvalPoliciesRouter } from "./approval-policies/router.ts";
import { approvalsRouter } from "./approvals/router.ts";
import { auditRouter } from "./audit/router.ts";
import { billingRouter } from "./billing/router.ts";
import { chatLinksRouter } from "./chat-links/router.ts";
import { cliCredentialsRouter } from "./cli-credentials/router.ts";
import { connectorsRouter } from "./connectors/router.ts";
import { fleetEventsRouter } from "./fleet-events/router.ts";
import { fleetKeysRouter } from "./fleet-keys/router.ts";
import { fleetLibrariesRouter } from "./fleet-libraries/router.ts";
import { fleetSchedulesRouter } from "./fleet-schedules/router.ts";
import { fleetsRouter } from "./fleets/router.ts";
import { idsRouter } from "./ids/router.ts";
import { integrationGrantsRouter } from "./integration-grants/router.ts";
import { leasesRouter } from "./leases/router.ts";
import { membersRouter } from "./members/router.ts";
import { memoriesRouter } from "./memories/router.ts";
import { modelGatewayRouter } from "./model-gateway/router.ts";
import { modelsRouter } from "./models/router.ts";
import { overviewRouter } from "./overview/router.ts";
import { providersRouter } from "./providers/router.ts";
import { runnersRouter } from "./runners/router.ts";
import { schedulesRouter } from "./schedules/router.ts";
import { secretsRouter } from "./secrets/router.ts";
import { sessionsRouter } from "./sessions/router.ts";
import { usersRouter } from "./users/router.ts";
import { webhookEndpointsRouter } from "./webhook-endpoints/router.ts";
import { webhooksRouter } from "./webhooks/router.ts";
import { workspacesRouter } from "./workspaces/router.ts";

/** Every operation's procedure, by resource: the router key is the resource part of each operation id. */
export const appRouter = router({
  activity: activityRouter,
  apiKeys: apiKeysRouter,
  approvalPolicies: approvalPoliciesRouter,
  approvals: approvalsRouter,
  audit: auditRouter,
  cliCredentials: cliCredentialsRouter,
  billing: billingRouter,
  chatLinks: chatLinksRouter,
  connectors: connectorsRouter,
  fleetEvents: fleetEventsRouter,
  fleetKeys: fleetKeysRouter,
  fleetLibraries: fleetLibrariesRouter,
  fleetSchedules: fleetSchedulesRouter,
  fleets: fleetsRouter,
  ids: idsRouter,
  integrationGrants: integrationGrantsRouter,
  leases: leasesRouter,
  members: membersRouter,
  memories: memoriesRouter,
  modelGateway: modelGatewayRouter,
  models: modelsRouter,
  overview: overviewRouter,
  providers: providersRouter,
  runners: runnersRouter,
  schedules: schedulesRouter,
  secrets: secretsRouter,
  sessions: sessionsRouter,
  users: usersRouter,
  webhookEndpoints: webhookEndpointsRouter,
  webhooks: webhooksRouter,
  workspaces: workspacesRouter,
});

export type AppRouter = typeof appRouter;

/**
 * Every operation the service serves, read from the router (its procedures' meta, resolver included): the
 * REST surface, the OpenAPI document and the shared security tests walk this. Each procedure's path must
 * be its operation's id, so the id in the contract is the only place it is written.
 */
export const operations: readonly ProcedureMeta[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>,
).map(([path, procedure]) => {
  const meta = procedure._def.meta;
  if (meta?.resolve === undefined || meta.id !== path)
    throw new Error(`procedure ${path} does not serve the operation its path names`);
  return meta;
});
