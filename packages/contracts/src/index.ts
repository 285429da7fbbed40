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
import { getTenantProvider } from "./providers/get-tenant-provider.ts";
import { replacePlatformKey } from "./providers/replace-platform-key.ts";
import { replaceTenantProvider } from "./providers/replace-tenant-provider.ts";
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
export * from "./scopes.ts";
export * from "./secrets/secret.ts";
export { callingPerson } from "./users/get-me.ts";
export { workspaceItem } from "./workspaces/list-workspaces.ts";
export {
  createApiKey,
  createFleet,
  createLibrary,
  createModel,
  createPlatformLibrary,
  createSecret,
  createWorkspace,
  deleteApiKey,
  deleteFleet,
  deleteModel,
  deleteSecret,
  exchangeSignInLink,
  getFleet,
  getFleetEvent,
  getLibrary,
  getMe,
  getTenantProvider,
  listAdminModels,
  listApiKeys,
  listCredentials,
  listFleetEvents,
  listFleets,
  listLibraries,
  listMemories,
  listModels,
  listSecrets,
  listWorkspaceEvents,
  listWorkspaces,
  messageFleet,
  replacePlatformKey,
  replaceSecret,
  replaceTenantProvider,
  updateApiKey,
  updateFleet,
  updateModel,
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
  "models.list": listModels,
  "models.adminList": listAdminModels,
  "models.create": createModel,
  "models.update": updateModel,
  "models.delete": deleteModel,
  "providers.replacePlatformKey": replacePlatformKey,
  "providers.getTenant": getTenantProvider,
  "providers.replaceTenant": replaceTenantProvider,
  "fleetLibraries.list": listLibraries,
  "fleetLibraries.get": getLibrary,
  "fleetLibraries.create": createLibrary,
  "fleetLibraries.createPlatform": createPlatformLibrary,
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;
