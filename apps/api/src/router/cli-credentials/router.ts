import { resource } from "../../trpc.ts";
import { listCliCredentials } from "./list-cli-credentials.ts";
import { revokeCliCredential } from "./revoke-cli-credential.ts";

export const cliCredentialsRouter = resource(listCliCredentials, revokeCliCredential);
