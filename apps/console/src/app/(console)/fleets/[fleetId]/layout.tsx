import type { ReactNode } from "react";
import { FleetWorkspace } from "../../../../features/fleets/fleet-workspace.tsx";

/** Every page of one fleet finds its workspace from the fleet's id when the address has none. */
export default async function FleetLayout({
  params,
  children,
}: {
  params: Promise<{ fleetId: string }>;
  children: ReactNode;
}) {
  const { fleetId } = await params;
  return <FleetWorkspace fleetId={fleetId}>{children}</FleetWorkspace>;
}
