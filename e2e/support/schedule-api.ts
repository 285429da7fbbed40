import type { OutputOf } from "@fleet/contracts";
import type { listSchedules as listOperation } from "@fleet/contracts/schedules/list-schedules";
import { call } from "./fleet-api.ts";
import type { Tenant } from "./fleetctl.ts";

/** Changes a schedule behind the console's back, as another person would. */
export function patchSchedule(
  apiUrl: string,
  tenant: Tenant,
  fleetId: string,
  scheduleId: string,
  body: Record<string, unknown>,
) {
  return call(
    apiUrl,
    tenant.api_key,
    "PATCH",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleetId}/schedules/${scheduleId}`,
    body,
  );
}

export function listSchedules(apiUrl: string, tenant: Tenant, fleetId: string) {
  return call<OutputOf<typeof listOperation>>(
    apiUrl,
    tenant.api_key,
    "GET",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleetId}/schedules`,
  );
}
