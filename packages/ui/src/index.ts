export { Badge, type BadgeTone } from "./badge.tsx";
export { Callout } from "./callout.tsx";
export { Button, type ButtonProps, type ButtonVariant } from "./button.tsx";
export { CopyButton, CopyField, type CopyFieldProps } from "./copy.tsx";
export { Dialog, type DialogProps } from "./dialog.tsx";
export { TextField, type TextFieldProps } from "./field.tsx";
export * from "./icons.tsx";
export { ProblemAlert, type ProblemAlertProps, type ProblemView } from "./problem-alert.tsx";
export { formatLocal, formatRelative, formatUtc, RelativeTime } from "./relative-time.tsx";
