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
  ServerIcon,
  ShieldIcon,
} from "@fleet/ui";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { consolePages } from "../lib/pages.ts";
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
  "/members": <PeopleIcon />,
  "/billing": <ChartIcon />,
  "/audit": <HistoryIcon />,
};

/** The navigation; `badges` puts a count beside a page's label, by its path (the app's `nav-badges.tsx`). */
export function Nav({ badges = {} }: { badges?: Readonly<Record<string, ReactNode>> }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="nav">
      <ul>
        {consolePages.map((item) => {
          const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link href={item.href} className="nav__link" aria-current={current ? "page" : undefined}>
                {icons[item.href] ?? null}
                <span>{item.label}</span>
                {badges[item.href] ?? null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
