"use client";

import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps, FocusEvent, MouseEvent, TouchEvent } from "react";

/**
 * The console's link: `next/link` that fetches its page ahead when the person reaches for it (the pointer
 * over it, keyboard focus, a touch), not when it scrolls into view. With viewport prefetching every page
 * load asked the console's server for the page behind each visible link (fifteen in the navigation, one
 * per row of a list) at the moment the page's own data was being fetched through the same server: the
 * fleet page's first data arrived ~100 ms later for it (docs/decisions/console-performance.md, "Links prefetch on intent;
 * formatters built once"). A link to another origin, or an explicit `prefetch={false}`, fetches nothing ahead.
 */
export function Link({
  href,
  prefetch,
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: ComponentProps<typeof NextLink>) {
  const router = useRouter();
  const target = typeof href === "string" && href.startsWith("/") && prefetch !== false ? href : null;
  const reach = () => {
    if (target !== null) router.prefetch(target);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        reach();
        onMouseEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        reach();
        onFocus?.(event);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        reach();
        onTouchStart?.(event);
      }}
    />
  );
}
