import { listModels as op } from "@fleet/contracts/models/list-models";
import { listModels as list } from "../../services/models/list-models.ts";
import { procedure } from "../../trpc.ts";

/** The catalogue, tagged with its version; a current If-None-Match answers 304 over REST. */
export const listModels = procedure(op).query(async ({ ctx, input }) => {
  const { tag, current, page } = await list(ctx.services, input);
  ctx.response.headers = { ...ctx.response.headers, etag: tag };
  if (current) ctx.response.notModified = true;
  return page;
});
