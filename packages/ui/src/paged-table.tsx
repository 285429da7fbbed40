import type { ReactNode } from "react";
import { Anchor, type ColumnSort, type LinkComponent, SortLink } from "./table-sort.tsx";

export interface CursorPagerProps {
  /** The navigation's name, "Pages of fleets". */
  label: string;
  /** What this page holds, "3 shown · 12 fleets in this workspace". */
  summary: ReactNode;
  /** The first page's URL; absent on the first page. */
  firstHref?: string | undefined;
  /** The next page's URL (its cursor in the URL); absent on the last page. */
  nextHref?: string | undefined;
  link?: LinkComponent;
}

/**
 * Forward-only cursor paging: each page is its own URL, so Back returns to the previous page and a page can
 * be shared; the first page is always one click away.
 */
export function CursorPager({ label, summary, firstHref, nextHref, link: Link = Anchor }: CursorPagerProps) {
  return (
    <nav className="ui-pager" aria-label={label}>
      <p className="ui-pager__summary">{summary}</p>
      <div className="ui-pager__links">
        {firstHref ? (
          <Link className="ui-button ui-button--secondary ui-button--sm" href={firstHref}>
            First page
          </Link>
        ) : null}
        {nextHref ? (
          <Link className="ui-button ui-button--secondary ui-button--sm" href={nextHref}>
            Next page
          </Link>
        ) : null}
      </div>
    </nav>
  );
}

export interface Column<T> {
  id: string;
  /** The header's words; hidden visually (kept for screen readers) when `headerHidden`. */
  header: string;
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  /** This column names the row (a `<th scope="row">`), so a row reads as "fleet Echo, Active, …". */
  rowHeader?: boolean;
  /** A width class for the column (`ui-table__col-time`); fixed widths keep columns still as rows change. */
  width?: "status" | "time" | "number" | "actions" | "wide-actions";
  align?: "end";
  /** The list can be sorted by this column: its header is a link (the sort lives in the URL). */
  sort?: ColumnSort;
}

export interface PagedTableProps<T> {
  /** What the table lists, read before its rows ("Fleets in the workspace default, newest first"). */
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Data attributes a row carries (`data-status`), for tests and styles. */
  rowData?: (row: T) => Record<`data-${string}`, string | undefined>;
  /** A newer page is loading: the rows shown are the previous page's. */
  busy?: boolean;
  pager?: CursorPagerProps;
  /** How sort headers and the pager link; the pager's own `link` wins for the pager. */
  link?: LinkComponent;
  /**
   * For a table whose rows hold nothing focusable and that may scroll sideways on a phone: the scroll box
   * becomes a focusable region of this name, so a keyboard can scroll it.
   */
  scrollRegion?: string;
}

/** Marks the row actions' cells: on a narrow screen they stay in view while the table scrolls (data.css). */
function actionsColumn(column: Pick<Column<never>, "width">): "" | undefined {
  return column.width === "actions" || column.width === "wide-actions" ? "" : undefined;
}

/** A table of one page of a cursor-paged list, with its pager under it. */
export function PagedTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowData,
  busy,
  pager,
  link = Anchor,
  scrollRegion,
}: PagedTableProps<T>) {
  return (
    <>
      <div
        className="ui-table-scroll"
        {...(scrollRegion === undefined ? {} : { role: "region", "aria-label": scrollRegion, tabIndex: 0 })}
      >
        <table className="ui-table" aria-busy={busy || undefined}>
          <caption className="ui-visually-hidden">{caption}</caption>
          <colgroup>
            {columns.map((column) => (
              <col key={column.id} className={column.width ? `ui-table__col-${column.width}` : undefined} />
            ))}
          </colgroup>
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.id}
                  scope="col"
                  data-align={column.align}
                  data-actions={actionsColumn(column)}
                  aria-sort={column.sort?.current}
                >
                  {column.headerHidden ? (
                    <span className="ui-visually-hidden">{column.header}</span>
                  ) : column.sort ? (
                    <SortLink label={column.header} sort={column.sort} link={link} />
                  ) : (
                    column.header
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)} {...rowData?.(row)}>
                {columns.map((column) =>
                  column.rowHeader ? (
                    <th key={column.id} scope="row" className="ui-table__row-header">
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.id} data-align={column.align} data-actions={actionsColumn(column)}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pager ? <CursorPager link={link} {...pager} /> : null}
    </>
  );
}
