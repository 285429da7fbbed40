import { resource } from "../../trpc.ts";
import { deleteMemory } from "./delete-memory.ts";
import { listMemories } from "./list-memories.ts";
import { writeMemory } from "./write-memory.ts";

export const memoriesRouter = resource(deleteMemory, listMemories, writeMemory);
