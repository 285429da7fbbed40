import type { StreamFrameKind } from "@fleet/contracts";

/** What a stream listens to: a workspace, one fleet of it or all, some kinds or all. */
export interface StreamFilter {
  workspaceId: string;
  fleetId: string | null;
  kinds: ReadonlySet<string> | null;
}

/** What a stream operation's resolver answers: what to subscribe to, and the frame id to resume after. */
export interface StreamSubscription extends StreamFilter {
  afterId: number | null;
}

/** A frame as a publisher hands it over, before it has an id. */
export interface FrameInput {
  workspaceId: string;
  fleetId: string;
  /** Null for a gate no run raised (an integration grant's). */
  eventId: string | null;
  leaseId: string | null;
  kind: StreamFrameKind;
  payload: Record<string, unknown>;
  at: number;
}

/** A stored frame, as it travels in a NOTIFY payload and is read back from the table. */
export interface StoredFrame {
  id: number;
  workspace_id: string;
  fleet_id: string;
  event_id: string | null;
  lease_id: string | null;
  kind: string;
  payload: Record<string, unknown>;
  at: number;
}

/** One open stream as the hub sees it: where it listens and how a frame reaches it. */
export interface Subscriber extends StreamFilter {
  /** Receives the frame's wire bytes, shared by every subscriber it goes to. */
  deliver(id: number, frame: Buffer): void;
  /** Several frames follow: keep what `deliver` writes until `release`, and send it together. */
  hold(): void;
  release(): void;
}

export interface ReplayAnswer {
  /** The frames after the given id, oldest first, as wire bytes; empty with `reset`. */
  frames: { id: number; frame: Buffer }[];
  /** The gap is older than the window holds: the client must refetch. */
  reset: boolean;
}

/**
 * The wire bytes of a frame: `id:`, `event:` and one line of JSON, serialised once for every stream. The
 * payload's fields are also at the top level of the data, where the origin's command-line client reads them
 * (`status` of `event_complete`, a chunk's `text`); the frame's own fields win a clash, and the nested
 * `payload` stays for clients that read it there.
 */
export function encodeFrame(frame: StoredFrame): Buffer {
  const data = JSON.stringify({
    ...frame.payload,
    frame_id: String(frame.id),
    kind: frame.kind,
    workspace_id: frame.workspace_id,
    fleet_id: frame.fleet_id,
    event_id: frame.event_id,
    lease_id: frame.lease_id,
    at: Number(frame.at),
    payload: frame.payload,
  });
  return Buffer.from(`id: ${frame.id}\nevent: ${frame.kind}\ndata: ${data}\n\n`);
}
