import { EventEmitter } from "node:events";
import type { ActivityFrame } from "@fleet/contracts";

/** One frame as the live tail will stream it: the frame, and where it came from. */
export interface PublishedFrame {
  workspaceId: string;
  fleetId: string;
  eventId: string;
  leaseId: string;
  /** The stream's frame name: `tool_call_started`, `chunk`, `tool_call_progress`, `tool_call_completed`. */
  kind: string;
  data: Record<string, unknown>;
  at: number;
}

const streamNames: Record<string, string> = { fleet_response_chunk: "chunk" };

/**
 * Where runners' activity frames go. Publication is best-effort and in-process; the live-tail streams
 * subscribe here.
 */
export class ActivityBus {
  private emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(origin: Omit<PublishedFrame, "kind" | "data" | "at">, frames: ActivityFrame[], at: number): void {
    for (const frame of frames) {
      const [variant, data] = Object.entries(frame)[0]!;
      const published: PublishedFrame = {
        ...origin,
        kind: streamNames[variant] ?? variant,
        data: data as Record<string, unknown>,
        at,
      };
      this.emitter.emit("frame", published);
    }
  }

  subscribe(listener: (frame: PublishedFrame) => void): () => void {
    this.emitter.on("frame", listener);
    return () => this.emitter.off("frame", listener);
  }
}
