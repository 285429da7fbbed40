"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { type ReactNode, useEffect } from "react";
import { useAddress, withWorkspace } from "../../lib/use-workspace.ts";
import { useIdWorkspace } from "../ids/use-id-workspace.ts";
import { FleetLoading, FleetWithoutWorkspace } from "./fleet-header.tsx";

/**
 * Every page under one fleet (the fleet, an event in its dialog, a run) opened without its workspace in
 * the address: the fleet's id finds it, and the address is replaced with the workspace added and every
 * other parameter kept. A fleet the API cannot place for this person says so.
 */
export function FleetWorkspace({ fleetId, children }: { fleetId: string; children: ReactNode }) {
  const router = useRouter();
  const given = useSearchParams().get("workspace") || undefined;
  const owner = useIdWorkspace(given === undefined ? fleetId : undefined, "fleet");
  const here = useAddress();
  useEffect(() => {
    if (owner.workspaceId) router.replace(withWorkspace(here, owner.workspaceId), { scroll: false });
  }, [owner.workspaceId, here, router]);
  if (given !== undefined) return children;
  return owner.missing ? <FleetWithoutWorkspace /> : <FleetLoading />;
}
