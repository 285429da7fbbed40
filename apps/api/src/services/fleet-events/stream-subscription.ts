import type { StreamSubscription } from "../../runtime/stream-hub.ts";

export interface StreamInput {
  workspace_id: string;
  kinds?: string;
  last_event_id?: string;
}

export function subscription(input: StreamInput, fleetId: string | null): StreamSubscription {
  return {
    workspaceId: input.workspace_id,
    fleetId,
    kinds: input.kinds === undefined ? null : new Set(input.kinds.split(",")),
    afterId: input.last_event_id === undefined ? null : Number(input.last_event_id),
  };
}
