import type { ServiceContext } from "../shared/context.ts";
import { requireRunnerView } from "./runner-admin.ts";

export async function getRunner(ctx: ServiceContext, id: string) {
  return requireRunnerView(ctx, id);
}
