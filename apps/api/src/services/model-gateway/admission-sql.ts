import { type Database, type DeliveredSealed, resultRows, sql } from "@fleet/db";
import { spendThisPeriod } from "../billing/period.ts";

/** What the admission statement answers: the lease and its fleet, the verdict, and the call's target. */
export interface AdmissionRow {
  id: string;
  fleet_id: string;
  event_id: string;
  tenant_id: string;
  workspace_id: string;
  fencing_token: number | string;
  /** The secrets delivered to the run, sealed (its masker masks them on every instance). */
  delivered_sealed: DeliveredSealed[] | string | null;
  admitted: boolean;
  /**
   * Why the holder may not call, null when it may: `not_holder` (another runner's lease), the lease's
   * status when it is not running, `superseded` (an older token, or a newer lease granted), `expired`.
   */
  refusal: string | null;
  /** What the budget verdict read (the holder's refusal aside, `admitted` false means no room). */
  usage_nanos: number | string;
  model_nanos: number | string;
  in_flight: number | string;
  run_budget_nanos: number | string | null;
  period_budget_nanos: number | string | null;
  period_spend_nanos: number | string;
  /** Nanos reserved for the call (0 when refused). */
  reserved: number | string;
  provider: string | null;
  /** The resolved model: the definition's when the provider's catalogue has it, else the provider's. */
  model: string | null;
  base_url: string | null;
  /** The tenant's sealed key, or the platform key's secret row; null when there is none. */
  wrapped_key: string | null;
  ciphertext: string | null;
  secret_workspace_id: string | null;
  secret_name: string | null;
  input_price: number | string | null;
  cached_price: number | string | null;
  output_price: number | string | null;
}

export interface AdmissionParams {
  leaseId: string;
  runnerId: string;
  fencingToken: number;
  now: number;
  period: string;
  /** The call's estimated prompt tokens and its output limit. */
  input: number;
  output: number;
}

/**
 * One statement, one round trip, no transaction around it:
 * - `f` locks the lease's fleet row (the lock every fenced write and every charge takes first), so no
 *   newer lease is granted and no charge lands while the call is admitted;
 * - `t` chooses the target: the tenant's own provider, else the platform default with its key's secret
 *   row; the fleet definition's `model:` when that provider's catalogue has it; that model's prices;
 * - `l` reads the lease by its key alone (with the runner beside the key in the condition, a generic plan
 *   made while the table had no statistics read the runner's index: every lease it ever held; the
 *   runner is checked in `refusal` instead) and `for no key update`: under READ COMMITTED a locking read
 *   returns the lease's newest version (a concurrent call's reservation included), where a plain read
 *   would return the statement's snapshot and let two calls reserve the same room;
 * - `l` also says why a holder may not call (`refusal`: the rule every fenced write keeps, with the
 *   expiry), so a refusal is answered from this statement's own reads, with no second check;
 * - `g` decides: the current holder (token = the lease's = the fleet's sequence), not expired, and room
 *   left (the run's cap and the fleet's period budget, each less the run's spend and its reservations;
 *   the model spend is in the fleet's period spend already, so it is not counted twice) for the call's
 *   worst case (`want`), or, when the room is smaller, no other call in flight on the lease;
 * - `r` reserves the worst case clamped to the room, and the update writes it;
 * - `quick` commits the statement without waiting for its WAL flush (`synchronous_commit` off for this
 *   transaction alone): a reservation is soft state that the call's charge (a durable commit) replaces, so
 *   a database crash can lose only reservations of calls it also cut, and the call saves a flush (0.22 ms
 *   here, docs/decisions/model-gateway.md "Figures").
 */
export async function admissionStatement(db: Database, p: AdmissionParams): Promise<AdmissionRow[]> {
  return resultRows<AdmissionRow>(
    await db.execute(sql`
      with quick as (select set_config('synchronous_commit', 'off', true) as off),
      f as (
        select f.id, f.tenant_id, f.workspace_id, f.fence_seq, f.run_budget_nanos, f.period_budget_nanos,
          ${spendThisPeriod(p.period)} as spend,
          f.definition->>'model' as named
        from fleets f
        where f.id = (select fleet_id from leases where id = ${p.leaseId}::uuid)
        for no key update
      ),
      t as (
        select c.provider, coalesce(d.model_id, c.model) as model, c.base_url, c.wrapped_key, c.ciphertext,
          c.secret_workspace_id, c.secret_name, pr.input_nanos_per_mtok as input_price,
          pr.cached_input_nanos_per_mtok as cached_price, pr.output_nanos_per_mtok as output_price
        from f
        left join lateral (
          (select 0 as rank, tp.provider, m.model_id as model, tp.base_url, tp.wrapped_key, tp.ciphertext,
             null::uuid as secret_workspace_id, null::text as secret_name
           from tenant_providers tp join models m on m.uid = tp.model_uid
           where tp.tenant_id = f.tenant_id and tp.provider <> 'platform')
          union all
          (select 1, pk.provider, m.model_id, pk.base_url, s.wrapped_key, s.ciphertext,
             pk.source_workspace_id, pk.secret_name
           from platform_keys pk join models m on m.uid = pk.model_uid
           left join secrets s on s.workspace_id = pk.source_workspace_id and s.name = pk.secret_name)
          order by rank limit 1
        ) c on true
        left join models d on d.provider = c.provider and d.model_id = f.named
        left join models pr on pr.provider = c.provider and pr.model_id = coalesce(d.model_id, c.model)
      ),
      l as (
        select l.id, l.fleet_id, l.event_id, l.fencing_token, l.delivered_sealed, l.reserved_nanos as in_flight,
          l.usage_nanos, l.model_nanos,
          case when l.runner_id <> ${p.runnerId}::uuid then 'not_holder'
            when l.status <> 'running' then l.status
            when l.fencing_token <> ${p.fencingToken}::bigint or f.fence_seq <> l.fencing_token then 'superseded'
            when l.expires_at <= ${p.now}::bigint then 'expired'
          end as refusal,
          least(
            f.run_budget_nanos - l.usage_nanos - l.reserved_nanos,
            f.period_budget_nanos - f.spend - (l.usage_nanos - l.model_nanos) - l.reserved_nanos
          ) as room
        from leases l join f on f.id = l.fleet_id
        where l.id = ${p.leaseId}::uuid
        for no key update of l
      ),
      w as (
        select l.*, t.*,
          case when t.input_price is null then 0::bigint else least(
            ceil((${p.input}::numeric * t.input_price + ${p.output}::numeric * t.output_price) / 1000000),
            9007199254740991)::bigint end as want
        from l cross join t
      ),
      g as (
        select w.*, w.refusal is null and (w.room is null
            or (w.room > 0 and (w.room >= w.want or w.in_flight = 0))) as admitted
        from w
      ),
      r as (
        select g.*, case when not g.admitted then 0::bigint
          when g.room is null then g.want else least(g.want, g.room) end as reserved
        from g
      ),
      reserve as (
        update leases set reserved_nanos = leases.reserved_nanos + r.reserved
        from r where leases.id = r.id and r.reserved > 0
      )
      select r.id, r.fleet_id, r.event_id, f.tenant_id, f.workspace_id, r.fencing_token, r.delivered_sealed,
        r.admitted, r.refusal, r.usage_nanos, r.model_nanos, r.in_flight, f.run_budget_nanos,
        f.period_budget_nanos, f.spend as period_spend_nanos, r.reserved, r.provider, r.model, r.base_url, r.wrapped_key, r.ciphertext, r.secret_workspace_id,
        r.secret_name, r.input_price, r.cached_price, r.output_price
      from r cross join f cross join quick`),
  );
}
