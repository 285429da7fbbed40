import { cookies } from "next/headers";
import { Link } from "../components/link.tsx";
import { NotFoundBody } from "../components/not-found-body.tsx";
import { SignedInShell } from "../components/signed-in-shell.tsx";
import { SESSION_COOKIE } from "../lib/session.ts";
import { navBadges } from "./nav-badges.tsx";
import "../styles/pages.css";

export const metadata = { title: "Page not found" };

/**
 * Every unmatched URL lands here (Next's root not-found). Signed in, it renders inside the console's
 * shell, navigation and all, as the console's own pages do; signed out, a styled page that leads to
 * sign-in. There is deliberately no catch-all route for unknown console URLs: with one in the build,
 * client-side navigations that change only the search parameters stopped happening (docs/decisions/console.md,
 * "Unknown pages and the first page after an install").
 */
export default async function NotFound() {
  const jar = await cookies();
  if (jar.has(SESSION_COOKIE))
    return (
      <SignedInShell navBadges={navBadges}>
        <NotFoundBody />
      </SignedInShell>
    );
  return (
    <main className="page" style={{ maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
      <h1 className="page-header__title">Page not found</h1>
      <p>
        There is nothing at this address. <Link href="/">Open the console</Link> or{" "}
        <Link href="/sign-in">sign in</Link>.
      </p>
    </main>
  );
}
