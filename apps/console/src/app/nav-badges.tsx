import { Suspense } from "react";
import { PendingBadge } from "../features/approvals/pending-count.tsx";

/**
 * What the features count beside the navigation's labels, by page path: the pending approvals. Composed
 * here, above the shell, so the shell (components/) knows no feature.
 */
export const navBadges = {
  // It reads the URL's workspace; Suspense keeps that from holding up the rest of the frame.
  "/approvals": (
    <Suspense fallback={null}>
      <PendingBadge />
    </Suspense>
  ),
};
