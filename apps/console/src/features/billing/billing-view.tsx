"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "../../components/link.tsx";
import { ListBody } from "../../components/list-body.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type BillingPosition, billingHref } from "../../lib/urls.ts";
import { BudgetsTable } from "./budgets-table.tsx";
import { ChargesTable } from "./charges-table.tsx";
import { formatNanos, spendChartData } from "./spend.ts";
import { SpendChart } from "./spend-chart.tsx";
import "./billing-view.css";

/**
 * The tenant's billing: the balance, what this period cost, each fleet's budget and spend, the spend per
 * day per fleet, and the charges. The charges' page and fleet filter live in the URL.
 */
export function BillingView({ position }: { position: BillingPosition }) {
  const trpc = useTRPC();
  const billing = useQuery(trpc.billing.get.queryOptions({}, { refetchOnWindowFocus: "always" }));
  const charges = useQuery(
    trpc.billing.listCharges.queryOptions(
      {
        ...(position.after ? { starting_after: position.after } : {}),
        ...(position.fleetId ? { fleet_id: position.fleetId } : {}),
        ...(position.limit !== undefined ? { limit: position.limit } : {}),
      },
      { placeholderData: keepPreviousData },
    ),
  );
  const data = billing.data;
  const names = new Map(data?.fleets.map((fleet) => [fleet.fleet_id, fleet.name]));
  const firstHref = position.after ? billingHref({ ...position, after: undefined }) : undefined;

  return (
    <div className="page page--wide billing">
      <PageHeader
        title="Billing"
        description="Your balance, what this month cost, each fleet's budget and the charges behind them. One charge is written for each fleet event a runner reports, priced from the model catalogue at that moment. Months are calendar months in UTC."
      />
      {billing.error ? (
        <section className="card">
          <ListProblem query={billing} />
        </section>
      ) : data === undefined ? (
        <section className="card">
          <ListLoading>Loading billing…</ListLoading>
        </section>
      ) : (
        <>
          <section className="billing-summary" aria-label="Balance and spend">
            <div className="card billing-figure" data-testid="balance">
              <h2 className="billing-figure__label">Balance</h2>
              <p
                className={`billing-figure__value${data.balance_nanos < 0 ? " billing-figure__value--negative" : ""}`}
              >
                {formatNanos(data.balance_nanos)}
              </p>
              <p className="billing-figure__note muted">
                {data.balance_nanos < 0
                  ? "Below zero: charges go on being recorded; ask your operator for credit."
                  : "Credit left after every charge."}
              </p>
            </div>
            <div className="card billing-figure">
              <h2 className="billing-figure__label">Spend this period</h2>
              <p className="billing-figure__value">{formatNanos(data.spend_this_period_nanos)}</p>
              <p className="billing-figure__note muted">
                {data.period} ·{" "}
                {data.fleets.filter((fleet) => fleet.over_budget).length > 0
                  ? `${data.fleets.filter((fleet) => fleet.over_budget).length} over budget`
                  : "no fleet over budget"}
              </p>
            </div>
          </section>
          <section className="card" aria-labelledby="spend-heading">
            <h2 id="spend-heading" className="card__title">
              Spend per day
            </h2>
            <div className="card__body">
              <SpendChart
                period={data.period}
                data={spendChartData(
                  data.daily,
                  names,
                  { start: data.period_start, end: data.period_end },
                  Date.now(),
                )}
              />
            </div>
          </section>
          <section className="card" aria-labelledby="budgets-heading">
            <h2 id="budgets-heading" className="card__title">
              Fleet budgets
            </h2>
            {data.fleets.length === 0 ? (
              <div className="empty-state">
                <p className="empty-state__title">No fleets yet</p>
                <p className="empty-state__text">Install a fleet; its budget and spend appear here.</p>
              </div>
            ) : (
              <BudgetsTable fleets={data.fleets} narrowedTo={position.fleetId} />
            )}
          </section>
        </>
      )}
      <section className="card" aria-labelledby="charges-heading">
        <h2 id="charges-heading" className="card__title">
          Charges
          {position.fleetId ? (
            <>
              {" "}
              of {names.get(position.fleetId) ?? "one fleet"}{" "}
              <Link className="ui-button ui-button--secondary ui-button--sm" href={billingHref({})}>
                Show every fleet
              </Link>
            </>
          ) : null}
        </h2>
        <ListBody
          list={charges}
          loading="Loading charges…"
          ways={
            firstHref ? (
              <Link className="ui-button ui-button--secondary ui-button--sm" href={firstHref}>
                Back to the first page
              </Link>
            ) : null
          }
        >
          {(data) =>
            data.items.length === 0 ? (
              <div className="empty-state">
                <p className="empty-state__title">{position.after ? "No older charges" : "No charges yet"}</p>
                <p className="empty-state__text">
                  {position.after
                    ? "This page is past the oldest charge."
                    : "A charge is written when a runner reports a fleet event."}
                </p>
                {firstHref ? (
                  <Link className="ui-button ui-button--secondary" href={firstHref}>
                    Back to the first page
                  </Link>
                ) : null}
              </div>
            ) : (
              <ChargesTable
                rows={data.items}
                fleetNames={names}
                busy={charges.isPlaceholderData}
                pager={
                  position.after || data.next_cursor
                    ? {
                        label: "Pages of charges",
                        summary: `${data.items.length} shown · ${data.total} ${
                          data.total === 1 ? "charge" : "charges"
                        }`,
                        firstHref,
                        nextHref: data.next_cursor
                          ? billingHref({ ...position, after: data.next_cursor })
                          : undefined,
                      }
                    : undefined
                }
              />
            )
          }
        </ListBody>
      </section>
    </div>
  );
}
