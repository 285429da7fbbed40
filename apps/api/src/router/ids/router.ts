import { resource } from "../../trpc.ts";
import { resolveId } from "./resolve-id.ts";

export const idsRouter = resource(resolveId);
