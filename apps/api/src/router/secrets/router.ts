import { resource } from "../../trpc.ts";
import { createSecret } from "./create-secret.ts";
import { deleteSecret } from "./delete-secret.ts";
import { listCredentials } from "./list-credentials.ts";
import { listSecrets } from "./list-secrets.ts";
import { replaceSecret } from "./replace-secret.ts";

export const secretsRouter = resource(
  createSecret,
  deleteSecret,
  listCredentials,
  listSecrets,
  replaceSecret,
);
