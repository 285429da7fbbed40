import type { ApiKeySort } from "@fleet/contracts";
import { ArrowIcon } from "@fleet/ui";
import Link from "next/link";
import { keysHref, type ListPosition } from "./urls.ts";

type Field = "key_name" | "created_at";

/**
 * A column header that sorts by its field: the first click picks the field's natural order (names A–Z,
 * newest first), the next reverses it. Changing the sort starts over from the first page.
 */
export function SortHeader({
  field,
  label,
  position,
}: {
  field: Field;
  label: string;
  position: ListPosition;
}) {
  const active = position.sort.replace(/^-/, "") === field;
  const descending = position.sort.startsWith("-");
  const natural: ApiKeySort = field === "created_at" ? "-created_at" : "key_name";
  const flipped = (descending ? field : `-${field}`) as ApiKeySort;
  const next = active ? flipped : natural;
  const ariaSort = active ? (descending ? "descending" : "ascending") : undefined;
  const nextOrder = next.startsWith("-") ? "descending" : "ascending";
  return (
    <th scope="col" aria-sort={ariaSort}>
      <Link
        className="sort-header"
        href={keysHref({ sort: next, limit: position.limit })}
        data-active={active || undefined}
      >
        {label}
        <span className="ui-visually-hidden">, sort {nextOrder}</span>
        {active ? <ArrowIcon direction={descending ? "down" : "up"} /> : null}
      </Link>
    </th>
  );
}
