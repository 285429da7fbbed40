import type { Metadata } from "next";
import { deliveryStatusOf, deliveryTypeOf } from "../../../../features/webhooks/delivery.ts";
import { EndpointView } from "../../../../features/webhooks/endpoint-view.tsx";
import { first, type Search } from "../../../../lib/search.ts";

export const metadata: Metadata = { title: "Webhook endpoint" };

/**
 * One webhook endpoint. Its workspace, the delivery log's filters and page, and the delivery open in the
 * inspect dialog live in the URL, so any view of it can be shared and reloaded.
 */
export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ endpointId: string }>;
  searchParams: Promise<Search>;
}) {
  const [{ endpointId }, search] = await Promise.all([params, searchParams]);
  return (
    <EndpointView
      position={{
        workspaceId: first(search.workspace),
        endpointId,
        // A status or type the log has not is no filter: neither sent nor shown as applied.
        status: deliveryStatusOf(first(search.status)),
        type: deliveryTypeOf(first(search.type)),
        after: first(search.after),
        delivery: first(search.delivery),
      }}
    />
  );
}
