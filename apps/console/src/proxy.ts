import { type NextRequest, NextResponse } from "next/server";
import { env } from "./env.ts";
import { contentSecurityPolicy, NONCE_HEADER, newNonce, STRICT_TRANSPORT_SECURITY } from "./lib/csp.ts";
import { isSecureRequest } from "./lib/redirect.ts";
import { RETURN_TO_COOKIE, returnPath, returnToCookieOptions } from "./lib/return-to.ts";
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
function toApi(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const target = new URL(`${pathname}${search}`, env().apiUrl);
  if (pathname.startsWith("/trpc")) return NextResponse.rewrite(target);
  if (request.method === "GET" && CALLBACK_PATH.test(pathname)) return NextResponse.rewrite(target);
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

/**
 * Every page gets a Content-Security-Policy with a nonce of its own. Next reads the nonce from the
 * policy on the request and puts it on the scripts it renders; the root layout reads it (NONCE_HEADER)
 * for its one inline script. HSTS when the person reached the console over https. A signed-out visit to a
 * page behind sign-in keeps its address for after the sign-in (lib/return-to.ts).
 */
function page(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, env().development);
  const headers = new Headers(request.headers);
  headers.set(NONCE_HEADER, nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  const secure = isSecureRequest(request.headers);
  if (secure) response.headers.set("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  // Signed out, the page sends the person to sign in: remember where they were going, whole.
  const target = returnPath(`${request.nextUrl.pathname}${request.nextUrl.search}`);
  if (request.method === "GET" && target !== undefined && !request.cookies.has(SESSION_COOKIE))
    response.cookies.set(RETURN_TO_COOKIE, target, returnToCookieOptions(secure));
  return response;
}

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/trpc") || pathname.startsWith("/v1/")) return toApi(request);
  return page(request);
}

export const config = {
  matcher: [
    "/trpc/:path*",
    "/v1/:path*",
    // Pages and route handlers; not the build's static files, which carry no script of their own.
    {
      source: "/((?!_next/static|_next/image|favicon.ico|icon.svg).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
