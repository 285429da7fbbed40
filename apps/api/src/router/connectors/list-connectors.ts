import { listConnectors as op } from "@fleet/contracts/connectors/list-connectors";
import { listCatalog } from "../../services/connectors/connectors.ts";
import { procedure } from "../../trpc.ts";

export const listConnectors = procedure(op).query(({ ctx }) =>
  listCatalog(ctx.services, ctx.principal.tenantId),
);
