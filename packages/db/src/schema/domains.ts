import {
  fleetEventStatuses,
  fleetEventTypes,
  fleetStatuses,
  leaseKinds,
  leaseStates,
  runnerEventTypes,
} from "@fleet/contracts";
import { customType } from "drizzle-orm/pg-core";

/**
 * Text columns held to a fixed set of values by a PostgreSQL domain (created in migration `0007`). The
 * tables a lease cycle writes use domains rather than CHECK constraints: PostgreSQL parses and plans a
 * table's CHECK expressions again in every statement that inserts or updates a row of it (7.5% of the
 * database's CPU in lease cycles), while a domain's check is planned once per connection and runs only
 * where the column is assigned. docs/decisions/operations.md, "Enumerated columns on hot tables".
 */
/** Each domain's values, from the contracts, as migration `0007` declares them (a test checks both). */
export const domainValues = {
  fleet_status: fleetStatuses,
  fleet_event_type: fleetEventTypes,
  fleet_event_status: fleetEventStatuses,
  lease_kind: leaseKinds,
  lease_status: leaseStates,
  runner_event_type: runnerEventTypes,
} as const;

/** A column of domain `name`, typed as the union of its values. */
function textDomain<N extends keyof typeof domainValues>(name: N) {
  return customType<{ data: (typeof domainValues)[N][number]; driverData: string }>({ dataType: () => name });
}

export const fleetStatus = textDomain("fleet_status");
export const fleetEventType = textDomain("fleet_event_type");
export const fleetEventStatus = textDomain("fleet_event_status");
export const leaseKind = textDomain("lease_kind");
export const leaseStatus = textDomain("lease_status");
export const runnerEventType = textDomain("runner_event_type");
