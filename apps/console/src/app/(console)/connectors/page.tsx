import type { Metadata } from "next";
import { ComingSoon } from "../../../components/coming-soon.tsx";

export const metadata: Metadata = { title: "Connectors" };

export default function ConnectorsPage() {
  return (
    <ComingSoon title="Connectors">
      This will show each workspace's connections to outside providers, which are connected, and which need to
      be reconnected.
    </ComingSoon>
  );
}
