import { WEBHOOK_DATA_MAX_BYTES, type WebhookEventType } from "@fleet/contracts";
import { type Database, resultRows, sql, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { anySubscriber } from "./subscribers.ts";

/** One outgoing event, as the act that causes it describes it. */
export interface WebhookEvent {
  tenantId: string;
  workspaceId: string;
  /** The fleet it concerns (an endpoint's fleet filter), or null. */
  fleetId: string | null;
  type: WebhookEventType;
  /** `approval_gate:<id>`, `fleet_event:<id>`: deliveries of one resource to one endpoint keep their order. */
  resource: string;
  /** The resource's read route, where a payload too large to send points. */
  readPath: string;
  at: number;
  /**
   * The event's id, when the act minted it (`newId(at)`, so a resource's events keep their order): the
   * act also puts it on the live-tail frame it publishes after commit (`webhook_id`), so a client
   * deduplicates across the two. Minted here otherwise.
   */
  id?: string;
}

/**
 * Writes an event to the outbox in the caller's transaction when an enabled endpoint of the workspace
 * subscribes to its type (and, when it has one, names its fleet): the act commits with its event, or rolls
 * back with it. The event goes alone; a deliverer writes its deliveries a moment after commit
 * (`fanOutEvents`), so an act pays one row whatever its subscribers. With no subscriber it writes nothing
 * and `data` is never built, so an act costs one indexed read of the workspace's endpoints. `data` is the
 * resource as its read route shows it, read in the same transaction; over `WEBHOOK_DATA_MAX_BYTES` as
 * JSON, a link to that route goes instead. Answers whether anything was written (the caller kicks the
 * deliverer after commit).
 */
export async function recordWebhookEvent(
  tx: Database | Tx,
  event: WebhookEvent,
  data: () => Promise<unknown> | unknown,
): Promise<boolean> {
  const [probe] = resultRows<{ subscribed: boolean }>(
    await tx.execute(sql`
      select ${anySubscriber({
        workspace: sql`${event.workspaceId}::uuid`,
        type: sql`${event.type}`,
        fleet: sql`${event.fleetId}::uuid`,
      })} as subscribed`),
  );
  if (probe?.subscribed !== true) return false;
  let json = JSON.stringify(await data());
  if (Buffer.byteLength(json) > WEBHOOK_DATA_MAX_BYTES) {
    json = JSON.stringify({ truncated: true, resource: event.resource, read_path: event.readPath });
  }
  await tx.execute(sql`
    insert into webhook_events (id, tenant_id, workspace_id, fleet_id, type, resource, data, created_at, fanned_out)
    values (${event.id ?? newId(event.at)}::uuid, ${event.tenantId}::uuid, ${event.workspaceId}::uuid,
      ${event.fleetId}::uuid, ${event.type}, ${event.resource}, ${json}::jsonb, ${event.at}::bigint, false)`);
  return true;
}
