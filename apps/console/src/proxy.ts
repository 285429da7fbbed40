import { type NextRequest, NextResponse } from "next/server";
import { env } from "./env.ts";

/**
 * The browser calls the API's /trpc through the console's origin, so the httpOnly session cookie goes
 * with it and page scripts never hold the credential. A rewrite here rather than in next.config: config
 * rewrites are frozen into the build, this one reads API_URL when the server starts.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  return NextResponse.rewrite(new URL(`${pathname}${search}`, env().apiUrl));
}

export const config = { matcher: "/trpc/:path*" };
