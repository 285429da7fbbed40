import type { ComponentType, ReactNode } from "react";
import { ArrowIcon } from "./icons.tsx";

/** How a link is drawn: the app's router link (Next's Link) or a plain anchor. */
export type LinkComponent = ComponentType<{ href: string; className?: string; children: ReactNode }>;

export const Anchor: LinkComponent = ({ href, className, children }) => (
  <a href={href} className={className}>
    {children}
  </a>
);

export type SortOrder = "ascending" | "descending";

/**
 * A column the list can be sorted by. The sort lives in the URL, so the header is a link: to the column's
 * natural order when another column sorts the list, to the reverse when this one does.
 */
export interface ColumnSort {
  /** The list's URL sorted by this column in the `next` order (usually back on the first page). */
  href: string;
  /** The order the list is in by this column now; absent when another column sorts it. */
  current?: SortOrder | undefined;
  /** The order the link gives, told to screen readers ("Name, sort descending"). */
  next: SortOrder;
}

/** A sortable column's header words: a link that sorts, with an arrow for the order the list is in. */
export function SortLink({
  label,
  sort,
  link: Link,
}: {
  label: string;
  sort: ColumnSort;
  link: LinkComponent;
}) {
  return (
    <Link className="ui-table__sort" href={sort.href}>
      {label}
      <span className="ui-visually-hidden">, sort {sort.next}</span>
      {sort.current ? <ArrowIcon direction={sort.current === "descending" ? "down" : "up"} /> : null}
    </Link>
  );
}
