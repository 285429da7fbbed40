import { type Database, resultRows, sql } from "@fleet/db";

/** A chat event to store, if its fleet is the tenant's, in the workspace, and active. */
export interface ChatRow {
  id: string;
  fleetId: string;
  workspaceId: string;
  tenantId: string;
  actor: string;
  requestJson: string;
  at: number;
}

/**
 * One statement for a batch of messages without a key: the rows as arrays, joined to the fleets that are
 * the tenant's, in the workspace, and active; a row is stored (true) or its fleet refused it (false).
 */
export async function storeChats(db: Database, rows: ChatRow[]): Promise<Map<string, boolean>> {
  const column = <K extends keyof ChatRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const result = await db.execute(sql`
    insert into fleet_events (id, workspace_id, fleet_id, actor, event_type, request_json, status, created_at, updated_at)
    select m.id, f.workspace_id, f.id, m.actor, 'chat', m.request_json, 'received', m.at, m.at
      from unnest(${column("id")}::uuid[], ${column("fleetId")}::uuid[], ${column("workspaceId")}::uuid[],
                  ${column("tenantId")}::uuid[], ${column("actor")}::text[], ${column("requestJson")}::text[],
                  ${column("at")}::bigint[])
        as m(id, fleet_id, workspace_id, tenant_id, actor, request_json, at)
      join fleets f
        on f.id = m.fleet_id and f.workspace_id = m.workspace_id and f.tenant_id = m.tenant_id
       and f.status = 'active'
    returning id`);
  const stored = new Set(resultRows<{ id: string }>(result).map((row) => row.id));
  return new Map(rows.map((row) => [row.id, stored.has(row.id)]));
}
