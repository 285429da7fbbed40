import type { ReactNode } from "react";
import { AlertIcon } from "./icons.tsx";

/**
 * A standing notice (not an error): a warning that a key is shown once, a consequence before a revoke,
 * or (info) how something works.
 */
export function Callout({
  tone = "warning",
  children,
}: {
  tone?: "warning" | "danger" | "info";
  children: ReactNode;
}) {
  return (
    <div className={`ui-callout ui-callout--${tone}`}>
      <AlertIcon />
      <div>{children}</div>
    </div>
  );
}
