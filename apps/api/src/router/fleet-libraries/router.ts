import { resource } from "../../trpc.ts";
import { createLibrary } from "./create-library.ts";
import { createPlatformLibrary } from "./create-platform-library.ts";
import { getLibrary } from "./get-library.ts";
import { listLibraries } from "./list-libraries.ts";

export const fleetLibrariesRouter = resource(createLibrary, createPlatformLibrary, getLibrary, listLibraries);
