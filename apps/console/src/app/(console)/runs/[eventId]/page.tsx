import type { Metadata } from "next";
import { RunById } from "../../../../features/fleet-events/run-by-id.tsx";

export const metadata: Metadata = { title: "Run" };

/**
 * A run by its event id alone (`/runs/<eventId>`), for a link that knows nothing else: the id finds its
 * fleet and workspace, and the address becomes the run's page with every parameter kept.
 */
export default async function RunByIdPage({ params }: { params: Promise<{ eventId: string }> }) {
  const { eventId } = await params;
  return <RunById eventId={eventId} />;
}
