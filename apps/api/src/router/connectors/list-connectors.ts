import { listConnectors as op } from "@fleet/contracts/connectors/list-connectors";
import { listConnectors as list } from "../../services/connectors/list-connectors.ts";
import { procedure } from "../../trpc.ts";

export const listConnectors = procedure(op).query(({ ctx }) => list(ctx.services, ctx.principal.tenantId));
