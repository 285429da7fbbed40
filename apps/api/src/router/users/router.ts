import { router } from "../../trpc.ts";
import { getMe } from "./get-me.ts";

export const usersRouter = router({ getMe });
