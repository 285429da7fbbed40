"use client";

import {
  BookIcon,
  ChartIcon,
  GridIcon,
  HistoryIcon,
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
import { type ReactNode, Suspense } from "react";
import { PendingBadge } from "../features/approvals/pending-count.tsx";

interface NavItem {
  href: string;
  label: string;
  icon: ReactNode;
  /** Areas whose screens have not landed yet say so in the navigation. */
  soon?: boolean;
  /** A count beside the label (the pending approvals). */
  badge?: ReactNode;
}

const items: NavItem[] = [
  {
    href: "/approvals",
    label: "Approvals",
    icon: <ShieldIcon />,
    // It reads the URL's workspace; Suspense keeps that from holding up the rest of the frame.
    badge: (
      <Suspense fallback={null}>
        <PendingBadge />
      </Suspense>
    ),
  },
  { href: "/runners", label: "Runners", icon: <ServerIcon /> },
  { href: "/fleets", label: "Fleets", icon: <GridIcon /> },
  { href: "/library", label: "Library", icon: <BookIcon /> },
  { href: "/activity", label: "Activity", icon: <PulseIcon /> },
  { href: "/connectors", label: "Connectors", icon: <PlugIcon /> },
  { href: "/secrets", label: "Secrets", icon: <LockIcon /> },
  { href: "/api-keys", label: "API keys", icon: <KeyIcon /> },
  { href: "/members", label: "Members", icon: <PeopleIcon /> },
  { href: "/billing", label: "Billing", icon: <ChartIcon /> },
  { href: "/audit", label: "Audit log", icon: <HistoryIcon /> },
];

export function Nav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="nav">
      <ul>
        {items.map((item) => {
          const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link href={item.href} className="nav__link" aria-current={current ? "page" : undefined}>
                {item.icon}
                <span>{item.label}</span>
                {item.soon ? <span className="nav__soon">Soon</span> : null}
                {item.badge ?? null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
