import type { Metadata } from "next";
import { ComingSoon } from "../../../components/coming-soon.tsx";

export const metadata: Metadata = { title: "Runners" };

export default function RunnersPage() {
  return (
    <ComingSoon title="Runners">
      This will list execution hosts with their admin state and liveness, degraded reasons, running leases and
      last heartbeat, with cordon, drain and revoke.
    </ComingSoon>
  );
}
