import { NextResponse } from "next/server";

/**
 * A 303 to a path on this origin. The Location stays relative so a proxy in front of the console needs no
 * host configuration; no-referrer keeps a one-time token in the URL out of the next page's Referer.
 */
export function redirectTo(path: string): NextResponse {
  return new NextResponse(null, {
    status: 303,
    headers: { location: path, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

/**
 * Whether the person reached the console over HTTPS, directly or through a TLS-terminating proxy (Next
 * sets x-forwarded-proto itself when nobody in front did). Decides the cookies' Secure flag, which plain
 * http on a developer's machine cannot carry.
 */
export function isSecureRequest(headers: Headers): boolean {
  return headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/**
 * Whether a form was posted from this console. A cross-site form could otherwise sign a visitor in to the
 * poster's tenant (login CSRF) or plant the poster's operator token.
 */
export function sameOrigin(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const origin = headers.get("origin");
  return origin === null || new URL(origin).host === headers.get("host");
}
