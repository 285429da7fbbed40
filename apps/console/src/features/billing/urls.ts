/** The billing page's position in its URL: the charges' page (cursor) and the fleet they are narrowed to. */
export interface BillingPosition {
  after?: string | undefined;
  fleetId?: string | undefined;
  /** Charges per page, when not the API's default. */
  limit?: number | undefined;
}

export function billingHref(position: BillingPosition): string {
  const params = new URLSearchParams();
  if (position.fleetId) params.set("fleet", position.fleetId);
  if (position.limit !== undefined) params.set("limit", String(position.limit));
  if (position.after) params.set("starting_after", position.after);
  const text = params.toString();
  return text ? `/billing?${text}` : "/billing";
}
