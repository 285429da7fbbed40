"use client";

import { Button, Dialog } from "@fleet/ui";
import { useId } from "react";
import type { LibraryItem } from "../../lib/library-entries.ts";
import { InstallReview } from "./install-review.tsx";
import { LibraryChoice } from "./library-choice.tsx";
import { type InstalledFleet, useInstall, useInstallSteps } from "./use-install.ts";

interface InstallFleetDialogProps {
  open: boolean;
  workspace: { id: string; name: string };
  onClose: () => void;
  onInstalled: (fleet: InstalledFleet) => void;
  /** Opens on this entry's review (from the entry's own page) instead of the choice. */
  initialEntry?: LibraryItem;
}

/**
 * Installs a fleet in two steps: choose a library entry, then review what it needs (each credential by
 * name and reason, marked held or missing, creatable in place) and install. The API stays the judge: a
 * credential still missing answers 424, shown with each missing credential's reason.
 */
export function InstallFleetDialog({
  open,
  workspace,
  onClose,
  onInstalled,
  initialEntry,
}: InstallFleetDialogProps) {
  const formId = useId();
  const steps = useInstallSteps(initialEntry);
  const { entry, reviewing } = steps;
  const install = useInstall(workspace.id, (fleet) => {
    onInstalled(fleet);
    close();
  });

  function close() {
    steps.reset();
    install.reset();
    onClose();
  }

  const review = reviewing && entry !== null;
  return (
    <Dialog
      open={open}
      onClose={close}
      dismissible={!install.isPending}
      size="wide"
      title={review ? `Install ${entry.name}` : "Install a fleet"}
      description={
        review ? (
          <>
            Into the workspace <strong>{workspace.name}</strong>. Check what the fleet needs, then install it.
          </>
        ) : (
          <>
            Choose a definition from the library of <strong>{workspace.name}</strong>. The fleet runs its
            instructions and wakes on its triggers once installed.
          </>
        )
      }
      // Keyed, so Continue and Install fleet are two buttons: one element updated in place would turn
      // into Install fleet (type submit) within Continue's own click, and the browser would then submit the
      // install form as that click's default action, installing without the review.
      footer={
        review ? (
          <>
            <Button
              key="back"
              onClick={() => {
                install.reset();
                steps.step(false);
              }}
              disabled={install.isPending}
            >
              Back
            </Button>
            <Button key="install" type="submit" form={formId} variant="primary" pending={install.isPending}>
              Install fleet
            </Button>
          </>
        ) : (
          <>
            <Button key="cancel" onClick={close}>
              Cancel
            </Button>
            <Button
              key="continue"
              variant="primary"
              disabled={entry === null}
              aria-describedby={entry === null ? `${formId}-choose-hint` : undefined}
              onClick={() => steps.step(true)}
            >
              Continue
            </Button>
          </>
        )
      }
    >
      <div id={steps.stepsId}>
        {review ? (
          <InstallReview
            formId={formId}
            workspace={workspace}
            entry={entry}
            install={install}
            onSubmit={(name) =>
              install.mutate({
                workspace_id: workspace.id,
                ...(entry.visibility === "platform"
                  ? { platform_library_id: entry.id }
                  : { tenant_library_id: entry.id }),
                ...(name !== entry.name ? { name } : {}),
              })
            }
          />
        ) : (
          <>
            <LibraryChoice workspaceId={workspace.id} value={entry} onChange={steps.setEntry} />
            <p id={`${formId}-choose-hint`} className="ui-hint">
              {entry === null ? "Choose an entry to continue." : `${entry.name} is chosen.`}
            </p>
          </>
        )}
      </div>
    </Dialog>
  );
}
