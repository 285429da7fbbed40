import { router } from "../../trpc.ts";
import { createApiKey } from "./create-api-key.ts";
import { deleteApiKey } from "./delete-api-key.ts";
import { listApiKeys } from "./list-api-keys.ts";
import { updateApiKey } from "./update-api-key.ts";

export const apiKeysRouter = router({
  create: createApiKey,
  list: listApiKeys,
  update: updateApiKey,
  delete: deleteApiKey,
});
