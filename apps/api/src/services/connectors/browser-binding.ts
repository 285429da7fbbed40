import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { OAUTH_STATE_TTL_MS, Problem } from "@fleet/contracts";
import type { Config } from "../../env.ts";

/**
 * A connect is bound to the browser that started it: a random nonce goes to that browser in a cookie, its
 * hash into the signed state. The vendor's redirect comes back to the callback in whichever browser gave
 * the consent; only the one holding the nonce (and signed in as the person who started) completes it.
 */
export interface BrowserBinding {
  /** The cookie's value, sent to the browser once and never stored. */
  nonce: string;
  /** What the state carries: SHA-256 of the nonce, base64url. */
  hash: string;
}

const hashOf = (nonce: string) => createHash("sha256").update(nonce).digest("base64url");

export function newBrowserBinding(): BrowserBinding {
  const nonce = randomBytes(32).toString("base64url");
  return { nonce, hash: hashOf(nonce) };
}

/** The cookie is the provider's own, so a connect of one provider does not end another's in flight. */
export const bindingCookieName = (provider: string) => `fleet_connect_${provider}`;

/** Where the browser takes the cookie: the callback's path only, on the console's origin that serves it. */
const cookiePath = (provider: string) => `/v1/connectors/${provider}/callback`;

/**
 * The `Set-Cookie` line of a connect: HttpOnly (no page script reads it), SameSite=Lax (the vendor's
 * redirect is a top-level GET, which Lax lets through; a cross-site subrequest never carries it), as long
 * as the state lives, on the callback's path only, and Secure when the console is served over https.
 */
export function bindingCookie(config: Config, provider: string, nonce: string): string {
  const secure = config.consoleUrl.startsWith("https:") ? "; Secure" : "";
  const maxAge = Math.floor(OAUTH_STATE_TTL_MS / 1000);
  return `${bindingCookieName(provider)}=${nonce}; Path=${cookiePath(provider)}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** The `Set-Cookie` line that removes the cookie once its connect is spent. */
export function clearedBindingCookie(config: Config, provider: string): string {
  const secure = config.consoleUrl.startsWith("https:") ? "; Secure" : "";
  return `${bindingCookieName(provider)}=; Path=${cookiePath(provider)}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}

/** What the callback's browser shows of itself: the binding cookie and who is signed in to the console. */
export interface CallbackBrowser {
  nonce: string | null;
  /** The signed-in person's principal label (as the state names its caller); null when nobody is. */
  signedIn: () => Promise<string | null>;
}

const notThisBrowser = (why: string) =>
  new Problem("UZ-CONN-010", {
    detail: `${why} Nothing was connected. Start the connect again from the console, in the browser you are signed in with.`,
  });

/**
 * Refuses a callback that did not come back to the browser that started the connect, signed in as the
 * person who started it: a consent link followed by anyone else (an attacker's link sent to a victim)
 * connects nothing.
 */
export async function requireStartingBrowser(
  browser: CallbackBrowser,
  boundHash: unknown,
  caller: string,
): Promise<void> {
  if (typeof boundHash !== "string" || browser.nonce === null)
    throw notThisBrowser("This connect was not started in this browser.");
  const given = Buffer.from(hashOf(browser.nonce));
  const expected = Buffer.from(boundHash);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw notThisBrowser("This connect was not started in this browser.");
  if ((await browser.signedIn()) !== caller)
    throw notThisBrowser("The person signed in to the console here is not the one who started this connect.");
}
