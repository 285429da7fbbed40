import { type Database, resultRows, type SQL, sql } from "@fleet/db";
import { anySubscriber } from "../webhook-endpoints/subscribers.ts";

/**
 * The `event.received` outbox write, as a CTE of the statement that stores a batch of chat events (the
 * message send's group commit): the events commit with their outgoing events or not at all, and the send
 * pays no round trip of its own. The statement names its rows `m` (with `id`, `tenant_id`, `at` and
 * `webhook_id`, the outbox id this gives each row) and its inserted events `stored` (`id`, `workspace_id`,
 * `fleet_id`, `actor`, `request_json`); `received` holds the outgoing events written. Each goes alone, for
 * a deliverer to fan out (`fanOutEvents`). With no endpoint subscribed, all it costs is one probe of the
 * workspace's endpoints (by `webhook_endpoints_workspace_idx`) per stored row, inside the statement, and
 * nothing is built. `data` is the event as its read shows it when just received: no bodies but the
 * request, no gates. A message is at most 32 KiB, so it never reaches the 256 KiB link-instead limit.
 */
export const receivedOutbox = sql`
  received as (
    insert into webhook_events (id, tenant_id, workspace_id, fleet_id, type, resource, data, created_at,
      fanned_out)
    select m.webhook_id, m.tenant_id, s.workspace_id, s.fleet_id, 'event.received', 'fleet_event:' || s.id,
           jsonb_build_object('event_id', s.id, 'fleet_id', s.fleet_id, 'workspace_id', s.workspace_id,
             'actor', s.actor, 'event_type', 'chat', 'status', 'received', 'created_at', m.at,
             'updated_at', m.at, 'request_json', s.request_json, 'gates', '[]'::jsonb),
           m.at, false
      from stored s join m on m.id = s.id
     where ${anySubscriber({ workspace: sql`s.workspace_id`, type: sql`'event.received'`, fleet: sql`s.fleet_id` })}
    returning id
  )`;

/**
 * The outbox ids of a batch's rows, one each, minted by each send (UUIDv7 at the row's time, as the
 * outbox's ids are) so its `event_received` frame carries the same id.
 */
export function webhookIds(rows: readonly { webhookId: string }[]): SQL {
  return sql`${sql.param(rows.map((row) => row.webhookId))}::uuid[]`;
}

/** Runs a storing statement whose last column says whether it wrote an outgoing event; tells `told` if so. */
export async function storedRows<Row extends { told: boolean }>(
  db: Database,
  statement: SQL,
  told: (() => void) | undefined,
): Promise<Row[]> {
  const rows = resultRows<Row>(await db.execute(statement));
  if (rows.some((row) => row.told)) told?.();
  return rows;
}
