import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { SignedInShell } from "../../components/signed-in-shell.tsx";
import { SESSION_COOKIE } from "../../lib/session.ts";
import { navBadges } from "../nav-badges.tsx";

/**
 * Pages behind sign-in. Only the cookie's presence is checked here; whether it still authenticates is the
 * API's call, and the shell shows its answer.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  if (!jar.has(SESSION_COOKIE)) redirect("/sign-in");
  return <SignedInShell navBadges={navBadges}>{children}</SignedInShell>;
}
