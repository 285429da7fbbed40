import type { Metadata } from "next";
import { ComingSoon } from "../../../components/coming-soon.tsx";

export const metadata: Metadata = { title: "Fleets" };

export default function FleetsPage() {
  return (
    <ComingSoon title="Fleets">
      This will list fleets with their status and counts, with pause, resume and stop, each fleet's live event
      log and its schedules.
    </ComingSoon>
  );
}
