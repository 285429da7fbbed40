import { resource } from "../../trpc.ts";
import { getFleetEvent } from "./get-fleet-event.ts";
import { listEventFrames } from "./list-event-frames.ts";
import { listFleetEvents } from "./list-fleet-events.ts";
import { listWorkspaceEvents } from "./list-workspace-events.ts";
import { retryFleetEvent } from "./retry-fleet-event.ts";
import { streamFleetEvents } from "./stream-fleet-events.ts";
import { streamWorkspaceEvents } from "./stream-workspace-events.ts";

export const fleetEventsRouter = resource(
  getFleetEvent,
  listEventFrames,
  listFleetEvents,
  listWorkspaceEvents,
  retryFleetEvent,
  streamFleetEvents,
  streamWorkspaceEvents,
);
