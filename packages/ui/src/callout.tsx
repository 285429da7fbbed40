import type { ReactNode } from "react";
import { AlertIcon, CheckIcon, InfoIcon } from "./icons.tsx";

/** Each tone's icon: a warning sign only where something may go wrong, a check where something went right. */
const icons = {
  warning: AlertIcon,
  danger: AlertIcon,
  info: InfoIcon,
  success: CheckIcon,
} as const;

/**
 * A standing notice (not an error): a warning that a key is shown once, a consequence before a revoke,
 * (info) how something works, or (success) that something was done.
 */
export function Callout({
  tone = "warning",
  children,
}: {
  tone?: "warning" | "danger" | "info" | "success";
  children: ReactNode;
}) {
  const Icon = icons[tone];
  return (
    <div className={`ui-callout ui-callout--${tone}`} data-tone={tone}>
      <Icon />
      <div>{children}</div>
    </div>
  );
}
