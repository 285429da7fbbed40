import { resource } from "../../trpc.ts";
import { createFleet } from "./create-fleet.ts";
import { deleteFleet } from "./delete-fleet.ts";
import { getFleet } from "./get-fleet.ts";
import { listFleets } from "./list-fleets.ts";
import { messageFleet } from "./message-fleet.ts";
import { updateFleet } from "./update-fleet.ts";

export const fleetsRouter = resource(
  createFleet,
  deleteFleet,
  getFleet,
  listFleets,
  messageFleet,
  updateFleet,
);
