// The console's addresses that the API sends out (chat messages, the command line), built in one place so
// they match the console's routes (apps/console/src/lib/urls.ts builds the same paths for its own links).

/** Where a run can be read whole: its conversation, steps, gates and spend. */
export function runConsoleUrl(
  consoleUrl: string,
  run: { workspaceId: string; fleetId: string; eventId: string },
): string {
  const path = `/fleets/${encodeURIComponent(run.fleetId)}/runs/${encodeURIComponent(run.eventId)}`;
  return `${consoleUrl}${path}?workspace=${encodeURIComponent(run.workspaceId)}`;
}

/** One gate opened in the approvals inbox of its workspace. */
export function gateConsoleUrl(consoleUrl: string, gate: { workspaceId: string; gateId: string }): string {
  const query = `workspace=${encodeURIComponent(gate.workspaceId)}&gate=${encodeURIComponent(gate.gateId)}`;
  return `${consoleUrl}/approvals?${query}`;
}
