import { resource } from "../../trpc.ts";
import { createFleetKey } from "./create-fleet-key.ts";
import { deleteFleetKey } from "./delete-fleet-key.ts";
import { listFleetKeys } from "./list-fleet-keys.ts";

export const fleetKeysRouter = resource(createFleetKey, deleteFleetKey, listFleetKeys);
