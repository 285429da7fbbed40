import type { BadgeTone } from "./badge.tsx";
import { Spinner } from "./icons.tsx";

/** How one status of a resource reads: its words and its tone. */
export interface StatusVariant {
  label: string;
  tone: BadgeTone;
}

export interface StatusBadgeProps<S extends string> {
  status: S;
  /** Every status the resource can be in, so a new one fails to compile rather than shows raw. */
  variants: Record<S, StatusVariant>;
  /**
   * The status shown is one the person asked for and the service has not confirmed yet: a spinner takes
   * the dot's place and the badge says so to screen readers.
   */
  pending?: boolean;
}

/**
 * A resource's status as a badge, its raw value in `data-status` for tests and styles. The tone's dot is
 * repeated in the words, so colour is never the only signal.
 */
export function StatusBadge<S extends string>({ status, variants, pending = false }: StatusBadgeProps<S>) {
  const variant = variants[status];
  return (
    <span
      className={`ui-badge ui-badge--${variant.tone}`}
      data-status={status}
      data-pending={pending || undefined}
      aria-busy={pending || undefined}
    >
      {pending ? <Spinner /> : <span className="ui-badge__dot" aria-hidden="true" />}
      {variant.label}
      {pending ? <span className="ui-visually-hidden"> (saving)</span> : null}
    </span>
  );
}
