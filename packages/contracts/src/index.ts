import { createApiKey } from "./api-keys/create-api-key.ts";
import { deleteApiKey } from "./api-keys/delete-api-key.ts";
import { listApiKeys } from "./api-keys/list-api-keys.ts";
import { updateApiKey } from "./api-keys/update-api-key.ts";
import { exchangeSignInLink } from "./auth/exchange-sign-in-link.ts";
import { getFleetEvent } from "./fleet-events/get-fleet-event.ts";
import { listFleetEvents } from "./fleet-events/list-fleet-events.ts";
import { listWorkspaceEvents } from "./fleet-events/list-workspace-events.ts";
import { createLibrary } from "./fleet-libraries/create-library.ts";
import { createPlatformLibrary } from "./fleet-libraries/create-platform-library.ts";
import { getLibrary } from "./fleet-libraries/get-library.ts";
import { listLibraries } from "./fleet-libraries/list-libraries.ts";
import { createFleet } from "./fleets/create-fleet.ts";
import { deleteFleet } from "./fleets/delete-fleet.ts";
import { getFleet } from "./fleets/get-fleet.ts";
import { listFleets } from "./fleets/list-fleets.ts";
import { messageFleet } from "./fleets/message-fleet.ts";
import { updateFleet } from "./fleets/update-fleet.ts";
import { listMemories } from "./memories/list-memories.ts";
import { createModel } from "./models/create-model.ts";
import { deleteModel } from "./models/delete-model.ts";
import { listAdminModels } from "./models/list-admin-models.ts";
import { listModels } from "./models/list-models.ts";
import { updateModel } from "./models/update-model.ts";
import type { Operation } from "./operation.ts";
import { deleteTenantProvider } from "./providers/delete-tenant-provider.ts";
import { getTenantProvider } from "./providers/get-tenant-provider.ts";
import { replacePlatformKey } from "./providers/replace-platform-key.ts";
import { replaceTenantProvider } from "./providers/replace-tenant-provider.ts";
import { acquireLease } from "./runner-self/acquire-lease.ts";
import { deleteMemory } from "./runner-self/delete-memory.ts";
import { getSelf } from "./runner-self/get-self.ts";
import { heartbeat } from "./runner-self/heartbeat.ts";
import { publishActivity } from "./runner-self/publish-activity.ts";
import { releaseLease } from "./runner-self/release-lease.ts";
import { renewLease } from "./runner-self/renew-lease.ts";
import { reportLease } from "./runner-self/report.ts";
import { writeMemory } from "./runner-self/write-memory.ts";
import { deleteRunner } from "./runners/delete-runner.ts";
import { enrollRunner } from "./runners/enroll-runner.ts";
import { getRunner } from "./runners/get-runner.ts";
import { listRunnerEvents } from "./runners/list-runner-events.ts";
import { listRunnerLeases } from "./runners/list-runner-leases.ts";
import { listRunners } from "./runners/list-runners.ts";
import { updateRunner } from "./runners/update-runner.ts";
import { createSchedule } from "./schedules/create-schedule.ts";
import { deleteSchedule } from "./schedules/delete-schedule.ts";
import { getSchedule } from "./schedules/get-schedule.ts";
import { listSchedules } from "./schedules/list-schedules.ts";
import {
  createFleetSchedule,
  deleteFleetSchedule,
  listFleetSchedules,
  runFleetSchedule,
  updateFleetSchedule,
} from "./schedules/runner-schedules.ts";
import { syncSchedule } from "./schedules/sync-schedule.ts";
import { updateSchedule } from "./schedules/update-schedule.ts";
import { createSecret } from "./secrets/create-secret.ts";
import { deleteSecret } from "./secrets/delete-secret.ts";
import { listCredentials } from "./secrets/list-credentials.ts";
import { listSecrets } from "./secrets/list-secrets.ts";
import { replaceSecret } from "./secrets/replace-secret.ts";
import { getMe } from "./users/get-me.ts";
import { createWorkspace } from "./workspaces/create-workspace.ts";
import { listWorkspaces } from "./workspaces/list-workspaces.ts";

export * from "./api-keys/api-key.ts";
export * from "./common.ts";
export * from "./errors.ts";
export * from "./fleet-events/fleet-event.ts";
export * from "./fleet-libraries/cron.ts";
export * from "./fleet-libraries/library.ts";
export * from "./fleets/fleet.ts";
export { MESSAGE_LIMIT } from "./fleets/message-fleet.ts";
export { memoryItem } from "./memories/list-memories.ts";
export * from "./models/model.ts";
export * from "./operation.ts";
export * from "./providers/provider.ts";
export { MAX_WAIT_MS } from "./runner-self/acquire-lease.ts";
export * from "./runner-self/lease.ts";
export { type ActivityFrame, activityFrame } from "./runner-self/publish-activity.ts";
export * from "./runners/runner.ts";
export * from "./schedules/schedule.ts";
export * from "./scopes.ts";
export * from "./secrets/secret.ts";
export { callingPerson } from "./users/get-me.ts";
export { workspaceItem } from "./workspaces/list-workspaces.ts";
export {
  acquireLease,
  createApiKey,
  createFleet,
  createFleetSchedule,
  createLibrary,
  createModel,
  createPlatformLibrary,
  createSchedule,
  createSecret,
  createWorkspace,
  deleteApiKey,
  deleteFleet,
  deleteFleetSchedule,
  deleteMemory,
  deleteModel,
  deleteRunner,
  deleteSchedule,
  deleteSecret,
  deleteTenantProvider,
  enrollRunner,
  exchangeSignInLink,
  getFleet,
  getFleetEvent,
  getLibrary,
  getMe,
  getRunner,
  getSchedule,
  getSelf,
  getTenantProvider,
  heartbeat,
  listAdminModels,
  listApiKeys,
  listCredentials,
  listFleetEvents,
  listFleetSchedules,
  listFleets,
  listLibraries,
  listMemories,
  listModels,
  listRunnerEvents,
  listRunnerLeases,
  listRunners,
  listSchedules,
  listSecrets,
  listWorkspaceEvents,
  listWorkspaces,
  messageFleet,
  publishActivity,
  releaseLease,
  renewLease,
  replacePlatformKey,
  replaceSecret,
  replaceTenantProvider,
  reportLease,
  runFleetSchedule,
  syncSchedule,
  updateApiKey,
  updateFleet,
  updateFleetSchedule,
  updateModel,
  updateRunner,
  updateSchedule,
  writeMemory,
};

/** Every operation of the service, keyed by its procedure path: the REST surface, OpenAPI and tests read this. */
export const operations = {
  "users.getMe": getMe,
  "auth.exchangeSignInLink": exchangeSignInLink,
  "apiKeys.create": createApiKey,
  "apiKeys.list": listApiKeys,
  "apiKeys.update": updateApiKey,
  "apiKeys.delete": deleteApiKey,
  "workspaces.create": createWorkspace,
  "workspaces.list": listWorkspaces,
  "secrets.list": listSecrets,
  "secrets.create": createSecret,
  "secrets.replace": replaceSecret,
  "secrets.delete": deleteSecret,
  "secrets.listCredentials": listCredentials,
  "fleets.list": listFleets,
  "fleets.create": createFleet,
  "fleets.get": getFleet,
  "fleets.update": updateFleet,
  "fleets.delete": deleteFleet,
  "fleets.message": messageFleet,
  "fleetEvents.list": listFleetEvents,
  "fleetEvents.listWorkspace": listWorkspaceEvents,
  "fleetEvents.get": getFleetEvent,
  "memories.list": listMemories,
  "runners.enroll": enrollRunner,
  "runners.list": listRunners,
  "runners.get": getRunner,
  "runners.update": updateRunner,
  "runners.delete": deleteRunner,
  "runners.listLeases": listRunnerLeases,
  "runners.listEvents": listRunnerEvents,
  "runnerSelf.get": getSelf,
  "runnerSelf.heartbeat": heartbeat,
  "runnerSelf.acquire": acquireLease,
  "runnerSelf.renew": renewLease,
  "runnerSelf.release": releaseLease,
  "runnerSelf.report": reportLease,
  "runnerSelf.activity": publishActivity,
  "runnerSelf.writeMemory": writeMemory,
  "runnerSelf.deleteMemory": deleteMemory,
  "schedules.list": listSchedules,
  "schedules.create": createSchedule,
  "schedules.get": getSchedule,
  "schedules.update": updateSchedule,
  "schedules.delete": deleteSchedule,
  "schedules.sync": syncSchedule,
  "runnerSchedules.create": createFleetSchedule,
  "runnerSchedules.list": listFleetSchedules,
  "runnerSchedules.update": updateFleetSchedule,
  "runnerSchedules.delete": deleteFleetSchedule,
  "runnerSchedules.run": runFleetSchedule,
  "models.list": listModels,
  "models.adminList": listAdminModels,
  "models.create": createModel,
  "models.update": updateModel,
  "models.delete": deleteModel,
  "providers.replacePlatformKey": replacePlatformKey,
  "providers.getTenant": getTenantProvider,
  "providers.replaceTenant": replaceTenantProvider,
  "providers.deleteTenant": deleteTenantProvider,
  "fleetLibraries.list": listLibraries,
  "fleetLibraries.get": getLibrary,
  "fleetLibraries.create": createLibrary,
  "fleetLibraries.createPlatform": createPlatformLibrary,
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;
