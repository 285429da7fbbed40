import { listCharges } from "@fleet/contracts/billing/list-charges";
import type { Metadata } from "next";
import { BillingView } from "../../../features/billing/billing-view.tsx";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Billing" };

/** Billing: balance, spend, budgets, the spend chart and the charges; the charges' page lives in the URL. */
export default async function BillingPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  // A page size the contract would refuse falls back to its default; a cursor is the API's to judge.
  const limit = listCharges.query.limit.safeParse(first(search.limit));
  return (
    <BillingView
      position={{
        after: first(search.starting_after),
        fleetId: first(search.fleet),
        limit: limit.success && search.limit !== undefined ? limit.data : undefined,
      }}
    />
  );
}
