import type { ReactNode } from "react";

/** One term and its value in a dialog's list of facts (a <dl>). */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A fact with no value. */
export const none = <span className="muted">—</span>;
