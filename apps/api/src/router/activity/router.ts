import { resource } from "../../trpc.ts";
import { publishActivity } from "./publish-activity.ts";

export const activityRouter = resource(publishActivity);
