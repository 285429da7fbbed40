import type { Metadata } from "next";
import { ComingSoon } from "../../../components/coming-soon.tsx";

export const metadata: Metadata = { title: "Approvals" };

export default function ApprovalsPage() {
  return (
    <ComingSoon title="Approvals">
      This will be the inbox of approval gates, oldest first, with time left before auto-deny, the evidence
      for each request, and approve or deny with a reason.
    </ComingSoon>
  );
}
