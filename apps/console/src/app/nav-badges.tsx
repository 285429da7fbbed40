import { Suspense } from "react";
import { PendingBadge } from "../features/approvals/pending-count.tsx";
import { DisabledEndpointsBadge } from "../features/webhooks/disabled-count.tsx";

/**
 * What the features count beside the navigation's labels, by page path: the pending approvals, and the
 * webhook endpoints the service disabled. Composed here, above the shell, so the shell (components/) knows
 * no feature.
 */
export const navBadges = {
  // They read the URL's workspace; Suspense keeps that from holding up the rest of the frame.
  "/approvals": (
    <Suspense fallback={null}>
      <PendingBadge />
    </Suspense>
  ),
  "/webhooks": (
    <Suspense fallback={null}>
      <DisabledEndpointsBadge />
    </Suspense>
  ),
};
