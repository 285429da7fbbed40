import type { ReactNode } from "react";

export type BadgeTone = "success" | "neutral" | "danger" | "warning" | "info";

/** A short status label; the dot repeats the tone for people who cannot tell the colours apart. */
export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span className={`ui-badge ui-badge--${tone}`}>
      <span className="ui-badge__dot" aria-hidden="true" />
      {children}
    </span>
  );
}
