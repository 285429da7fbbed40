export { ActionMenu, type ActionMenuProps, type MenuAction } from "./action-menu.tsx";
export { Badge, type BadgeTone } from "./badge.tsx";
export { Button, type ButtonProps, type ButtonVariant } from "./button.tsx";
export { Callout } from "./callout.tsx";
export { type Choice, RadioCards, SegmentedControl } from "./choice.tsx";
export { ConfirmDialog, type ConfirmDialogProps } from "./confirm-dialog.tsx";
export { CopyButton, CopyField, type CopyFieldProps } from "./copy.tsx";
export { Dialog, type DialogProps } from "./dialog.tsx";
export {
  FieldError,
  SelectField,
  type SelectFieldProps,
  TextField,
  type TextFieldProps,
} from "./field.tsx";
export { FormDialogFooter, type FormDialogFooterProps } from "./form-dialog-footer.tsx";
export { GuardedButton, type GuardedButtonProps } from "./guarded-button.tsx";
export * from "./icons.tsx";
export { JsonViewer, type JsonViewerProps, prettyJson } from "./json-viewer.tsx";
export {
  type Column,
  CursorPager,
  type CursorPagerProps,
  PagedTable,
  type PagedTableProps,
} from "./paged-table.tsx";
export { ProblemAlert, type ProblemAlertProps, type ProblemView } from "./problem-alert.tsx";
export { formatLocal, formatUtc, LocalTime, RelativeTime, RenderedAtProvider } from "./relative-time.tsx";
export { formatRelative } from "./relative-words.ts";
export {
  SecretInput,
  type SecretInputProps,
  SecretTextarea,
  type SecretTextareaProps,
} from "./secret-input.tsx";
export { Skeleton, type SkeletonProps } from "./skeleton.tsx";
export { StatusBadge, type StatusBadgeProps, type StatusVariant } from "./status-badge.tsx";
export type { ColumnSort, LinkComponent, SortOrder } from "./table-sort.tsx";
export { type Tab, Tabs, type TabsProps } from "./tabs.tsx";
export { browserTimeZone, TimeZoneField, type TimeZoneFieldProps } from "./time-zone-field.tsx";
export { TypedConfirmDialog, type TypedConfirmDialogProps } from "./typed-confirm-dialog.tsx";
export { formatInZone, ZonedTime } from "./zoned-time.tsx";
