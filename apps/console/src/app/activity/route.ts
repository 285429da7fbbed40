import type { NextRequest } from "next/server";
import { redirectTo } from "../../lib/redirect.ts";

/**
 * The Events page was once Activity, at /activity: its old address (a bookmark, a shared link) goes on to
 * /events with its query as it came (workspace, filters), every parameter kept.
 */
export function GET(request: NextRequest) {
  return redirectTo(`/events${request.nextUrl.search}`);
}
