import type { ServiceContext } from "../context.ts";

/** A button click on a message the service posted (chat approvals). */
export async function answerInteraction(
  _ctx: ServiceContext,
  _requestId: string,
  _provider: string,
  _envelope: Record<string, unknown>,
): Promise<{ status: "ok" | "ignored" | "duplicate"; error_code?: string }> {
  return { status: "ignored" };
}
