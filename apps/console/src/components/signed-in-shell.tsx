import { RenderedAtProvider } from "@fleet/ui";
import type { ReactNode } from "react";
import { Providers } from "../lib/providers.tsx";
import { ShortcutsProvider } from "../lib/shortcuts.tsx";
import { CommandPaletteProvider } from "./command-palette.tsx";
import { Shell } from "./shell.tsx";
import "../styles/pages.css";
import "../styles/shortcuts.css";

/**
 * The console's frame for a signed-in person, with everything its navigation needs (queries, shortcuts, the
 * command palette, the server's moment for times): the signed-in pages' layout and the not-found page use
 * this one, so a page outside the route tree has the same working shell (its palette button once did
 * nothing there, and its skip link was unstyled).
 */
export function SignedInShell({
  children,
  navBadges,
}: {
  children: ReactNode;
  /** The counts beside the navigation's labels, by page path (the app's `nav-badges.tsx`). */
  navBadges?: Readonly<Record<string, ReactNode>>;
}) {
  return (
    <Providers>
      <ShortcutsProvider>
        <CommandPaletteProvider>
          {/* The page's times are written against this moment, on the server and while hydrating. */}
          <RenderedAtProvider at={Date.now()}>
            <Shell navBadges={navBadges}>{children}</Shell>
          </RenderedAtProvider>
        </CommandPaletteProvider>
      </ShortcutsProvider>
    </Providers>
  );
}
