import type { ReactNode } from "react";

export interface SkeletonProps {
  /** What is loading, read by assistive technology ("Loading fleets…"); the bars are hidden from it. */
  label: ReactNode;
  /** The shape of what is coming: table rows, a page (title, line, block), or lines of text. */
  shape?: "rows" | "page" | "lines";
  /** How many rows or lines. */
  count?: number;
}

/** Widths that vary from bar to bar, so the placeholder reads as text and not as a grid of boxes. */
const widths = [88, 72, 94, 64, 80, 70];

/**
 * A placeholder in the shape of what loads: the layout does not jump when the data arrives, and the
 * page shows where things will be instead of a sentence. Announced once, politely, as a status.
 */
export function Skeleton({ label, shape = "rows", count = shape === "lines" ? 3 : 4 }: SkeletonProps) {
  return (
    <div className={`ui-skeleton ui-skeleton--${shape}`} role="status" data-loading="">
      <span className="ui-visually-hidden">{label}</span>
      <div aria-hidden="true">
        {shape === "page" ? (
          <>
            <span className="ui-skeleton__bar ui-skeleton__bar--title" />
            <span className="ui-skeleton__bar" style={{ width: "46%" }} />
            <span className="ui-skeleton__block" />
          </>
        ) : (
          Array.from({ length: count }, (_, i) =>
            shape === "rows" ? (
              <span key={i} className="ui-skeleton__row">
                <span className="ui-skeleton__bar" style={{ width: `${widths[i % widths.length]! / 2}%` }} />
                <span className="ui-skeleton__bar ui-skeleton__bar--short" />
                <span className="ui-skeleton__bar ui-skeleton__bar--short" />
              </span>
            ) : (
              <span key={i} className="ui-skeleton__bar" style={{ width: `${widths[i % widths.length]}%` }} />
            ),
          )
        )}
      </div>
    </div>
  );
}
