import { type Database, sql } from "@fleet/db";
import { receivedOutbox, storedRows, webhookIds } from "../fleet-events/received-webhooks.ts";

/** A chat event to store, if its fleet is the tenant's, in the workspace, and active. */
export interface ChatRow {
  id: string;
  fleetId: string;
  workspaceId: string;
  tenantId: string;
  actor: string;
  requestJson: string;
  at: number;
  /** The id of its `event.received` outgoing event, minted by the send (the frame carries it too). */
  webhookId: string;
}

/**
 * One statement for a batch of messages without a key: the rows as arrays, joined to the fleets that are
 * the tenant's, in the workspace, and active; a row is stored (true) or its fleet refused it (false). Its
 * `event.received` webhook events go in the same statement (`receivedOutbox`); `told` hears of any.
 */
export async function storeChats(
  db: Database,
  rows: ChatRow[],
  told?: () => void,
): Promise<Map<string, boolean>> {
  const column = <K extends keyof ChatRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const result = await storedRows<{ id: string; told: boolean }>(
    db,
    sql`
    with m as (
      select * from unnest(${column("id")}::uuid[], ${column("fleetId")}::uuid[], ${column("workspaceId")}::uuid[],
                           ${column("tenantId")}::uuid[], ${column("actor")}::text[], ${column("requestJson")}::text[],
                           ${column("at")}::bigint[], ${webhookIds(rows)})
        as m(id, fleet_id, workspace_id, tenant_id, actor, request_json, at, webhook_id)
    ), stored as (
      insert into fleet_events (id, workspace_id, fleet_id, actor, event_type, request_json, status, created_at, updated_at)
      select m.id, f.workspace_id, f.id, m.actor, 'chat', m.request_json, 'received', m.at, m.at
        from m
        join fleets f
          on f.id = m.fleet_id and f.workspace_id = m.workspace_id and f.tenant_id = m.tenant_id
         and f.status = 'active'
      returning id, workspace_id, fleet_id, actor, request_json
    ), ${receivedOutbox}
    select id, exists (select 1 from received) as told from stored`,
    told,
  );
  const stored = new Set(result.map((row) => row.id));
  return new Map(rows.map((row) => [row.id, stored.has(row.id)]));
}
