import { revokeCliCredential as op } from "@fleet/contracts/cli-credentials/revoke-cli-credential";
import { revokeCliCredential as revoke } from "../../services/cli-credentials/revoke-cli-credential.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const revokeCliCredential = procedure(op).mutation(({ ctx, input }) =>
  revoke(ctx.services, actorOf(ctx), ctx.principal, input.credential_id),
);
