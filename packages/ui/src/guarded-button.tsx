"use client";

import { useId } from "react";
import { Button, type ButtonProps } from "./button.tsx";

export interface GuardedButtonProps extends Omit<ButtonProps, "disabled"> {
  /**
   * Why the action is not available now ("Only a revoked runner can be deleted."); absent when it is. The
   * button then stays focusable, ignores clicks and shows the reason in a tooltip on hover or focus.
   */
  unavailable?: string | null | undefined;
}

/**
 * A button for an action that is not always allowed. Unavailable, it says why: the reason is its
 * accessible description and a tooltip, never a `title` only some people can reach.
 */
export function GuardedButton({ unavailable, onClick, ...rest }: GuardedButtonProps) {
  const tipId = useId();
  if (!unavailable) return <Button {...rest} onClick={onClick} />;
  return (
    <span className="ui-guarded">
      <Button
        {...rest}
        aria-disabled
        aria-describedby={[rest["aria-describedby"], tipId].filter(Boolean).join(" ")}
        data-unavailable
        onClick={(event) => event.preventDefault()}
      />
      <span role="tooltip" id={tipId} className="ui-tooltip ui-guarded__tip">
        {unavailable}
      </span>
    </span>
  );
}
