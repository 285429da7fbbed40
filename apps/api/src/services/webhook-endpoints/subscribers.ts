import { type SQL, sql } from "@fleet/db";

/** An outgoing event as a statement names it: each part a column, a parameter or a literal. */
export interface EventTerms {
  workspace: SQL;
  type: SQL;
  /** The fleet the event concerns; `null::uuid` for a tenant-wide event, which only unfiltered endpoints take. */
  fleet: SQL;
}

/**
 * The one rule of who gets an outgoing event: the endpoint `alias` is enabled, belongs to the event's
 * workspace, subscribes to its type, and names no fleet or the event's. The acts' outbox writes ask it (by
 * `anySubscriber`) and the fan-out joins on it, so an event is written exactly when someone will get it.
 */
export function subscribes(alias: string, event: EventTerms): SQL {
  const e = sql.identifier(alias);
  return sql`${e}.workspace_id = ${event.workspace} and ${e}.enabled and ${event.type} = any(${e}.event_types)
    and (${e}.fleet_id is null or ${e}.fleet_id = ${event.fleet})`;
}

/**
 * Whether any endpoint subscribes to the event (`subscribes`): one probe of the workspace's endpoints, by
 * `webhook_endpoints_workspace_idx`. Its alias is its own, so the terms may name the caller's columns.
 */
export function anySubscriber(event: EventTerms): SQL {
  return sql`exists (select 1 from webhook_endpoints subscriber where ${subscribes("subscriber", event)})`;
}
