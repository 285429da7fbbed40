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
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, Suspense, useEffect, useRef } from "react";
import { PendingBadge } from "../features/approvals/pending-count.tsx";
import { consolePages } from "../lib/pages.ts";

/** Each page's icon, by its path; the pages themselves, their labels and order are `lib/pages.ts`'s. */
const icons: Record<string, ReactNode> = {
  "/overview": <HomeIcon />,
  "/approvals": <ShieldIcon />,
  "/runners": <ServerIcon />,
  "/fleets": <GridIcon />,
  "/library": <BookIcon />,
  "/models": <ChartIcon />,
  "/activity": <PulseIcon />,
  "/connectors": <PlugIcon />,
  "/secrets": <LockIcon />,
  "/api-keys": <KeyIcon />,
  "/members": <PeopleIcon />,
  "/billing": <ChartIcon />,
  "/audit": <HistoryIcon />,
};

/** A count beside a page's label: the pending approvals. */
const badges: Record<string, ReactNode> = {
  // It reads the URL's workspace; Suspense keeps that from holding up the rest of the frame.
  "/approvals": (
    <Suspense fallback={null}>
      <PendingBadge />
    </Suspense>
  ),
};

export function Nav() {
  const pathname = usePathname();
  const nav = useRef<HTMLElement>(null);
  // On a phone the links are a row that scrolls sideways: the current one is brought into it, again when
  // the row's width changes (the approvals count arrives after the first paint and widens its link).
  useEffect(() => {
    void pathname;
    const list = nav.current;
    const row = list?.querySelector("ul");
    if (!list || !row) return;
    const center = () => {
      const current = list.querySelector<HTMLElement>('[aria-current="page"]');
      if (!current || list.scrollWidth <= list.clientWidth) return;
      const offset = current.getBoundingClientRect().left - list.getBoundingClientRect().left;
      list.scrollLeft += offset - (list.clientWidth - current.offsetWidth) / 2;
    };
    center();
    const observer = new ResizeObserver(center);
    observer.observe(row);
    return () => observer.disconnect();
  }, [pathname]);
  return (
    <nav ref={nav} aria-label="Main" className="nav">
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
