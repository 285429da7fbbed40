import { router } from "../../trpc.ts";
import { listMemories } from "./list-memories.ts";

export const memoriesRouter = router({ list: listMemories });
