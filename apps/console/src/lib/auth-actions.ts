"use server";

import type { ProblemView } from "@fleet/ui";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { SIGN_IN_PROBLEM_COOKIE } from "./flash.ts";
import { LANDING_PATH } from "./landing.ts";
import { OPERATOR_COOKIE } from "./operator.ts";
import { isSecureRequest } from "./redirect.ts";
import { RETURN_TO_COOKIE, returnPath } from "./return-to.ts";
import { endSession, KEY_SESSION_SECONDS, SESSION_COOKIE, sessionCookieOptions, whoIs } from "./session.ts";

export interface KeySignInState {
  problem: ProblemView | null;
}

/**
 * Signs in with a pasted tenant API key: the API verifies it, then it goes into the same httpOnly cookie
 * a session token would. Server actions check the Origin header, so another site cannot post this form.
 */
export async function signInWithKey(_previous: KeySignInState, form: FormData): Promise<KeySignInState> {
  const key = String(form.get("api_key") ?? "").trim();
  if (key.length === 0) {
    return {
      problem: { title: "API key required", detail: "Paste a tenant API key; it starts with agt_t." },
    };
  }
  const result = await whoIs(key);
  if (!result.ok) return { problem: result.problem };
  const jar = await cookies();
  jar.set(SESSION_COOKIE, key, {
    ...sessionCookieOptions(isSecureRequest(await headers())),
    maxAge: KEY_SESSION_SECONDS,
  });
  jar.delete({ name: SIGN_IN_PROBLEM_COOKIE, path: "/sign-in" });
  const back = returnPath(jar.get(RETURN_TO_COOKIE)?.value);
  jar.delete({ name: RETURN_TO_COOKIE, path: "/" });
  redirect(back ?? LANDING_PATH);
}

/** Ends the session on the API and forgets the credentials in this browser. */
export async function signOut(): Promise<void> {
  const jar = await cookies();
  // The session itself ends on the API, and with it the command-line sign-ins it approved.
  const credential = jar.get(SESSION_COOKIE)?.value;
  if (credential) await endSession(credential);
  jar.delete({ name: SESSION_COOKIE, path: "/" });
  // The operator token was pasted for this person's use of the console; it goes with them.
  jar.delete({ name: OPERATOR_COOKIE, path: "/" });
  // A refused link from earlier in this browser is no longer news on the next sign-in page.
  jar.delete({ name: SIGN_IN_PROBLEM_COOKIE, path: "/sign-in" });
  redirect("/sign-in");
}
