import { listLeaseFrames as op } from "@fleet/contracts/runners/list-lease-frames";
import { listLeaseFrames as list } from "../../services/runners/list-lease-frames.ts";
import { procedure } from "../../trpc.ts";

export const listLeaseFrames = procedure(op).query(({ ctx, input }) => list(ctx.services, input));
