import { listCliCredentials as op } from "@fleet/contracts/cli-credentials/list-cli-credentials";
import { listCliCredentials as list } from "../../services/cli-credentials/list-cli-credentials.ts";
import { procedure } from "../../trpc.ts";

export const listCliCredentials = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal, input),
);
