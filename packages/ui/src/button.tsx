"use client";

import type { ComponentPropsWithRef, ReactNode } from "react";
import { Spinner } from "./icons.tsx";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

export interface ButtonProps extends ComponentPropsWithRef<"button"> {
  variant?: ButtonVariant;
  size?: "md" | "sm";
  /** A request the button started is under way: announced with aria-busy, further clicks ignored. */
  pending?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant = "secondary",
  size = "md",
  pending = false,
  icon,
  className,
  children,
  type = "button",
  onClick,
  ...rest
}: ButtonProps) {
  const classes = ["ui-button", `ui-button--${variant}`, `ui-button--${size}`, className]
    .filter(Boolean)
    .join(" ");
  return (
    <button
      {...rest}
      // type defaults to "button" so a button inside a form never submits it by accident.
      type={type}
      className={classes}
      aria-busy={pending || undefined}
      // aria-disabled rather than disabled keeps focus on the button while its request runs.
      aria-disabled={
        pending ||
        rest.disabled ||
        rest["aria-disabled"] === true ||
        rest["aria-disabled"] === "true" ||
        undefined
      }
      onClick={(event) => {
        if (pending) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {pending ? <Spinner /> : icon}
      {children}
    </button>
  );
}
