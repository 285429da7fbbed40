"use client";

import {
  BookIcon,
  ChartIcon,
  GridIcon,
  HistoryIcon,
  HomeIcon,
  KeyIcon,
  LockIcon,
  PeopleIcon,
  PlugIcon,
  PulseIcon,
  SendIcon,
  ServerIcon,
  ShieldIcon,
} from "@fleet/ui";
import { usePathname } from "next/navigation";
import { type ReactNode, useId } from "react";
import { lackingText, usePageReach } from "../lib/access.ts";
import type { ConsolePage } from "../lib/pages.ts";
import { Link } from "./link.tsx";
import "./nav.css";

/** Each page's icon, by its path; the pages themselves, their labels and order are `lib/pages.ts`'s. */
const icons: Record<string, ReactNode> = {
  "/overview": <HomeIcon />,
  "/approvals": <ShieldIcon />,
  "/runners": <ServerIcon />,
  "/fleets": <GridIcon />,
  "/library": <BookIcon />,
  "/models": <ChartIcon />,
  "/events": <PulseIcon />,
  "/connectors": <PlugIcon />,
  "/secrets": <LockIcon />,
  "/api-keys": <KeyIcon />,
  "/webhooks": <SendIcon />,
  "/members": <PeopleIcon />,
  "/billing": <ChartIcon />,
  "/audit": <HistoryIcon />,
};

/**
 * The navigation; `badges` puts a count beside a page's label, by its path (the app's `nav-badges.tsx`). A
 * page the signed-in person's scopes cannot open is left out or shown disabled with the scope it needs
 * (`lib/pages.ts` says which, `lib/access.ts` reads the scopes).
 */
export function Nav({ badges = {} }: { badges?: Readonly<Record<string, ReactNode>> }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="nav">
      <ul>
        {usePageReach().map(({ page, reach }) => {
          if (reach === "hidden") return null;
          if (reach === "disabled") return <DisabledPage key={page.href} page={page} />;
          const current = pathname === page.href || pathname.startsWith(`${page.href}/`);
          return (
            <li key={page.href}>
              <Link href={page.href} className="nav__link" aria-current={current ? "page" : undefined}>
                {icons[page.href] ?? null}
                <span>{page.label}</span>
                {badges[page.href] ?? null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * A page the person lacks the scope for: still in its place, so they learn it exists, but a disabled link
 * that goes nowhere, and the scope to ask for in a tooltip on hover or focus (its accessible description).
 */
function DisabledPage({ page }: { page: ConsolePage }) {
  const tipId = useId();
  return (
    <li className="nav__item--disabled">
      {/* biome-ignore lint/a11y/useSemanticElements: a disabled link has no href, and an <a> without one is no link; focusable, so the reason is reachable by keyboard */}
      <span role="link" aria-disabled="true" tabIndex={0} aria-describedby={tipId} className="nav__link">
        {icons[page.href] ?? null}
        <span>{page.label}</span>
      </span>
      <span role="tooltip" id={tipId} className="ui-tooltip nav__tip">
        {lackingText(page)}
      </span>
    </li>
  );
}
