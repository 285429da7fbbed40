import { consolePages } from "./pages.ts";

/**
 * Where a signed-out person was going when the console sent them to sign in: kept in this browser for 15
 * minutes, and opened after the sign-in (by link or by key) instead of the overview, so a link to one gate
 * or one run still reaches it through a sign-in.
 */
export const RETURN_TO_COOKIE = "fleet_return_to";

export function returnToCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: "lax", path: "/", maxAge: 15 * 60, secure } as const;
}

/** The first segments of the pages behind sign-in: the navigation's, and those reached only by a link. */
const SIGNED_IN_SECTIONS = new Set([...consolePages.map((page) => page.href.slice(1)), "device", "connect"]);

/** At most this much address is kept: a longer one is no console link. */
const MAX_RETURN_LENGTH = 2048;

/**
 * `target` when it is a page of this console behind sign-in (a path on this origin, never `//host` or a
 * backslash that a browser would read as another host), else undefined.
 */
export function returnPath(target: string | undefined): string | undefined {
  if (target === undefined || target.length > MAX_RETURN_LENGTH) return undefined;
  if (!target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return undefined;
  const section = target.slice(1).split(/[/?#]/, 1)[0] ?? "";
  return SIGNED_IN_SECTIONS.has(section) ? target : undefined;
}
