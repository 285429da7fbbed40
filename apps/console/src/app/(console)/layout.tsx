import "../../styles/shell.css";
import "../../styles/pages.css";
import "../../styles/shortcuts.css";
import "../../styles/palette.css";
import { RenderedAtProvider } from "@fleet/ui";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { CommandPaletteProvider } from "../../components/command-palette.tsx";
import { Shell } from "../../components/shell.tsx";
import { Providers } from "../../lib/providers.tsx";
import { SESSION_COOKIE } from "../../lib/session.ts";
import { ShortcutsProvider } from "../../lib/shortcuts.tsx";

/**
 * Pages behind sign-in. Only the cookie's presence is checked here; whether it still authenticates is the
 * API's call, and the shell shows its answer.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const jar = await cookies();
  if (!jar.has(SESSION_COOKIE)) redirect("/sign-in");
  return (
    <Providers>
      <ShortcutsProvider>
        <CommandPaletteProvider>
          {/* The page's times are written against this moment, on the server and while hydrating. */}
          <RenderedAtProvider at={Date.now()}>
            <Shell>{children}</Shell>
          </RenderedAtProvider>
        </CommandPaletteProvider>
      </ShortcutsProvider>
    </Providers>
  );
}
