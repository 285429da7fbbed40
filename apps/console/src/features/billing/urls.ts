import { withQuery } from "../../lib/urls.ts";

/** The billing page's position in its URL: the charges' page (cursor) and the fleet they are narrowed to. */
export interface BillingPosition {
  after?: string | undefined;
  fleetId?: string | undefined;
  /** Charges per page, when not the API's default. */
  limit?: number | undefined;
}

export function billingHref(position: BillingPosition): string {
  return withQuery("/billing", {
    fleet: position.fleetId,
    limit: position.limit?.toString(),
    starting_after: position.after,
  });
}
