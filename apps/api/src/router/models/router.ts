import { resource } from "../../trpc.ts";
import { createModel } from "./create-model.ts";
import { deleteModel } from "./delete-model.ts";
import { listAdminModels } from "./list-admin-models.ts";
import { listModels } from "./list-models.ts";
import { updateModel } from "./update-model.ts";

export const modelsRouter = resource(createModel, deleteModel, listAdminModels, listModels, updateModel);
