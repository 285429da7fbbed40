import { router } from "../../trpc.ts";
import { createModel } from "./create-model.ts";
import { deleteModel } from "./delete-model.ts";
import { listAdminModels } from "./list-admin-models.ts";
import { listModels } from "./list-models.ts";
import { updateModel } from "./update-model.ts";

export const modelsRouter = router({
  list: listModels,
  adminList: listAdminModels,
  create: createModel,
  update: updateModel,
  delete: deleteModel,
});
