import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Spinner } from "./icons.tsx";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
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
      // Buttons default to type=button so one inside a form never submits it by accident.
      // biome-ignore lint/a11y/useButtonType: the type is a prop with a safe default
      type={type}
      className={classes}
      aria-busy={pending || undefined}
      // aria-disabled rather than disabled keeps focus on the button while its request runs.
      aria-disabled={pending || rest.disabled || undefined}
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
