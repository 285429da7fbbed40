import { resource } from "../../trpc.ts";
import { createApiKey } from "./create-api-key.ts";
import { deleteApiKey } from "./delete-api-key.ts";
import { listApiKeys } from "./list-api-keys.ts";
import { rotateApiKey } from "./rotate-api-key.ts";
import { updateApiKey } from "./update-api-key.ts";

export const apiKeysRouter = resource(createApiKey, deleteApiKey, listApiKeys, rotateApiKey, updateApiKey);
