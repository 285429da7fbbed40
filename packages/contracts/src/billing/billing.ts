import { z } from "zod";
import { epochMs } from "../common.ts";

/** An amount in nanos of the tenant's currency unit (a billionth), as every cost field is. */
export function nanos(field: string) {
  return z
    .number({ error: `${field} must be an integer number of nanos` })
    .int({ error: `${field} must be an integer number of nanos` })
    .min(0, { error: `${field} must be at least 0` });
}

/** The billing period: the calendar month in UTC, `YYYY-MM`. */
export const billingPeriod = z.string().regex(/^\d{4}-\d{2}$/);

/** At most this many alert percents per fleet. */
export const MAX_ALERT_PERCENTS = 10;

/** Percents of a fleet's period budget at which an alert goes out (once each per period). */
export const alertPercents = z
  .array(
    z
      .number({ error: "alert_percents holds integers from 1 to 1000" })
      .int({ error: "alert_percents holds integers from 1 to 1000" })
      .min(1, { error: "alert_percents holds integers from 1 to 1000" })
      .max(1000, { error: "alert_percents holds integers from 1 to 1000" }),
    { error: "alert_percents must be an array of integers" },
  )
  .max(MAX_ALERT_PERCENTS, { error: `at most ${MAX_ALERT_PERCENTS} alert percents` })
  .refine((values) => new Set(values).size === values.length, { error: "alert_percents must not repeat" });

/** A fleet's budget settings and what it has spent this period. */
export const fleetBudget = z
  .object({
    fleet_id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    /** The fleet's budget per period; null: none. */
    period_budget_nanos: z.number().int().nullable(),
    /** The cap on one run (one event's lease); null: none. */
    run_budget_nanos: z.number().int().nullable(),
    alert_percents: z.array(z.number().int()),
    period: billingPeriod,
    /** What the fleet's charges this period add up to. */
    period_spend_nanos: z.number().int(),
    /** The period budget is spent: the fleet takes no new work until it is raised or the period ends. */
    over_budget: z.boolean(),
  })
  .meta({ id: "FleetBudget" });

/** One charge: a fleet event's cost, priced when the report that completed it arrived. */
export const charge = z
  .object({
    charge_id: z.string(),
    workspace_id: z.string(),
    fleet_id: z.string(),
    event_id: z.string(),
    lease_id: z.string(),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    tokens: z.number().int().nullable(),
    input_tokens: z.number().int().nullable(),
    output_tokens: z.number().int().nullable(),
    cached_tokens: z.number().int().nullable(),
    /** The catalogue row's prices at the time of the report; null when the runner's cost was taken. */
    input_nanos_per_mtok: z.number().int().nullable(),
    cached_input_nanos_per_mtok: z.number().int().nullable(),
    output_nanos_per_mtok: z.number().int().nullable(),
    /** `catalogue`: priced from the model's catalogue row; `reported`: the runner's cost_nanos. */
    price_source: z.enum(["catalogue", "reported"]),
    cost_nanos: z.number().int(),
    created_at: epochMs,
  })
  .meta({ id: "Charge" });
