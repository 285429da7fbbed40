import { resource } from "../../trpc.ts";
import { getMe } from "./get-me.ts";

export const usersRouter = resource(getMe);
