import { resource } from "../../trpc.ts";
import { chatCompletions } from "./chat-completions.ts";
import { listModels } from "./list-models.ts";

export const modelGatewayRouter = resource(chatCompletions, listModels);
