import { testTenantProvider as op } from "@fleet/contracts/providers/test-tenant-provider";
import { testTenantProvider as test } from "../../services/model-gateway/test-provider.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const testTenantProvider = procedure(op).mutation(({ ctx }) =>
  test(ctx.services, actorOf(ctx), ctx.principal.tenantId),
);
