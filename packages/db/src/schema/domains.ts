import { fleetEventStatuses, fleetEventTypes, fleetStatuses, runnerEventTypes } from "@fleet/contracts";
import { customType } from "drizzle-orm/pg-core";

/**
 * Text columns held to a fixed set of values by a PostgreSQL domain (created in migration `0007`). The
 * tables a lease cycle writes use domains rather than CHECK constraints: PostgreSQL parses and plans a
 * table's CHECK expressions again in every statement that inserts or updates a row of it (7.5% of the
 * database's CPU in lease cycles), while a domain's check is planned once per connection and runs only
 * where the column is assigned. docs/decisions.md, "Enumerated columns on hot tables".
 */
function textDomain<T extends string>(domain: string) {
  return customType<{ data: T; driverData: string }>({ dataType: () => domain });
}

/**
 * Each domain's values, as migration `0007` declares them (a test holds the two together): the
 * contracts' lists where the API shows the column, and the stored lease states (an `unknown` outcome is
 * derived, never stored).
 */
export const domainValues = {
  fleet_status: fleetStatuses,
  fleet_event_type: fleetEventTypes,
  fleet_event_status: fleetEventStatuses,
  lease_kind: ["fresh", "reclaim"],
  lease_status: ["running", "succeeded", "failed", "expired"],
  runner_event_type: runnerEventTypes,
} as const;

type Values = typeof domainValues;
export type FleetStatus = Values["fleet_status"][number];
export type FleetEventType = Values["fleet_event_type"][number];
export type FleetEventStatus = Values["fleet_event_status"][number];
export type LeaseKind = Values["lease_kind"][number];
export type LeaseStatus = Values["lease_status"][number];
export type RunnerEventType = Values["runner_event_type"][number];

export const fleetStatus = textDomain<FleetStatus>("fleet_status");
export const fleetEventType = textDomain<FleetEventType>("fleet_event_type");
export const fleetEventStatus = textDomain<FleetEventStatus>("fleet_event_status");
export const leaseKind = textDomain<LeaseKind>("lease_kind");
export const leaseStatus = textDomain<LeaseStatus>("lease_status");
export const runnerEventType = textDomain<RunnerEventType>("runner_event_type");
