"use client";

import { Button, ProblemAlert } from "@fleet/ui";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { LANDING_PATH } from "../lib/landing.ts";
import { problemOf, statusOf } from "../lib/problem.ts";
import { useShortcutsSheet } from "../lib/shortcuts.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { CommandPaletteButton } from "./command-palette.tsx";
import { Identity } from "./identity.tsx";
import { Link } from "./link.tsx";
import { Nav } from "./nav.tsx";
import { NavDrawer } from "./nav-drawer.tsx";
import { ThemeSwitch } from "./theme-switch.tsx";
import "./shell.css";

/**
 * The frame of every signed-in page: brand, navigation, the signed-in person, and the page. `navBadges` are
 * the counts beside the navigation's labels, by page path.
 */
export function Shell({
  children,
  navBadges,
}: {
  children: ReactNode;
  navBadges?: Readonly<Record<string, ReactNode>>;
}) {
  const trpc = useTRPC();
  // The procedure's input is an empty object, and an absent input is refused, so send one.
  const me = useQuery(trpc.users.getMe.queryOptions({}));
  // A session that expired or a key that was revoked: every page would fail, so say it once, here.
  const signedOut = me.error !== null && statusOf(me.error) === 401;
  return (
    <div className="shell">
      {/* First in the tab order: past the navigation to the page. */}
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="shell__sidebar">
        <Link href={LANDING_PATH} className="brand">
          <span className="brand__mark" aria-hidden="true">
            F
          </span>
          <span className="brand__name">Fleet Control Plane</span>
        </Link>
        <NavDrawer>
          <Nav badges={navBadges} />
          <CommandPaletteButton />
          <ShortcutsButton />
          <ThemeSwitch />
          <Identity me={me.data} failed={me.error !== null} />
        </NavDrawer>
      </aside>
      <main className="shell__main" id="main" tabIndex={-1}>
        {signedOut && me.error ? (
          <div className="page">
            <ProblemAlert problem={problemOf(me.error)}>
              <Link className="ui-button ui-button--primary ui-button--sm" href="/sign-in">
                Sign in again
              </Link>
            </ProblemAlert>
          </div>
        ) : (
          children
        )}
      </main>
    </div>
  );
}

/** The shortcut list, reachable by mouse too, and when the keys themselves are switched off. */
function ShortcutsButton() {
  const open = useShortcutsSheet();
  return (
    <Button variant="ghost" size="sm" className="shell__shortcuts" aria-keyshortcuts="?" onClick={open}>
      Keyboard shortcuts <kbd>?</kbd>
    </Button>
  );
}
