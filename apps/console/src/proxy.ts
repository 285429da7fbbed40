import { type NextRequest, NextResponse } from "next/server";
import { env } from "./env.ts";
import { SESSION_COOKIE } from "./lib/session.ts";

/** The event streams the browser follows: `/v1/workspaces/{ws}[/fleets/{fid}]/events/stream`. */
const STREAM_PATH = /^\/v1\/workspaces\/[^/]+(?:\/fleets\/[^/]+)?\/events\/stream$/;

/** Where a connector's vendor sends the browser back after the consent. */
const CALLBACK_PATH = /^\/v1\/connectors\/[^/]+\/callback$/;

/**
 * The browser calls the API's /trpc through the console's origin, so the httpOnly session cookie goes
 * with it and page scripts never hold the credential. A rewrite here rather than in next.config: config
 * rewrites are frozen into the build, this one reads API_URL when the server starts.
 *
 * The event streams are /v1 routes, which read bearer credentials only: for them (reads, GET only) the
 * proxy hands the API the session cookie's credential as a bearer token, still without the page seeing it.
 *
 * A connector's callback comes back here too (the vendor's redirect URL is on the console's origin), with
 * its cookies as they are: the API checks the connect's browser binding and who is signed in from them.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const target = new URL(`${pathname}${search}`, env().apiUrl);
  if (request.method === "GET" && CALLBACK_PATH.test(pathname)) return NextResponse.rewrite(target);
  if (!pathname.startsWith("/trpc")) {
    const credential = request.cookies.get(SESSION_COOKIE)?.value;
    if (request.method !== "GET" || !STREAM_PATH.test(pathname) || credential === undefined)
      return NextResponse.json(
        { type: "about:blank", title: "Not found", status: 404, detail: "The console serves no such route." },
        { status: 404, headers: { "content-type": "application/problem+json" } },
      );
    const headers = new Headers(request.headers);
    headers.set("authorization", `Bearer ${credential}`);
    headers.delete("cookie");
    return NextResponse.rewrite(target, { request: { headers } });
  }
  return NextResponse.rewrite(target);
}

export const config = {
  matcher: ["/trpc/:path*", "/v1/workspaces/:path*", "/v1/connectors/:provider/callback"],
};
