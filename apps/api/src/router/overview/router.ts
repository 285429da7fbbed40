import { resource } from "../../trpc.ts";
import { getOverview } from "./get-overview.ts";

export const overviewRouter = resource(getOverview);
