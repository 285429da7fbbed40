import Link from "next/link";
import type { RouterOutputs } from "../../lib/trpc.ts";
import { keysHref, type ListPosition } from "./urls.ts";

type Page = RouterOutputs["apiKeys"]["list"];

/**
 * Cursor paging goes forward only; the first page is always one click away and the browser's Back button
 * returns to the previous page, since each page is its own URL.
 */
export function Pager({ position, page }: { position: ListPosition; page: Page }) {
  const count = page.items.length;
  return (
    <nav className="pager" aria-label="Pages of API keys">
      <p className="pager__summary">
        {count} shown · {page.total} {page.total === 1 ? "key" : "keys"} in this tenant
      </p>
      <div className="pager__links">
        {position.startingAfter ? (
          <Link
            className="ui-button ui-button--secondary ui-button--sm"
            href={keysHref({ ...position, startingAfter: undefined })}
          >
            First page
          </Link>
        ) : null}
        {page.next_cursor ? (
          <Link
            className="ui-button ui-button--secondary ui-button--sm"
            href={keysHref({ ...position, startingAfter: page.next_cursor })}
          >
            Next page
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
