import { CheckIcon } from "@fleet/ui";
import type { ReactNode } from "react";

/** What the last action did, said where the eyes are once its dialog closes; empty, but present, before. */
export function DoneStatus({ done, className }: { done: ReactNode; className?: string }) {
  return (
    <p className={className ? `toolbar-status ${className}` : "toolbar-status"} role="status">
      {done ? (
        <>
          <CheckIcon />
          {done}
        </>
      ) : null}
    </p>
  );
}
