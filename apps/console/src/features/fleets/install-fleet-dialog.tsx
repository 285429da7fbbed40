"use client";

import { Button, Dialog, ProblemAlert, TextField } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { LibraryItem } from "../../lib/library-entries.ts";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { type RouterOutputs, useTRPC } from "../../lib/trpc.ts";
import { CredentialChecklist } from "./credential-checklist.tsx";
import { LibraryChoice } from "./library-choice.tsx";

export type InstalledFleet = RouterOutputs["fleets"]["create"];

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
  const [entry, setEntry] = useState<LibraryItem | null>(initialEntry ?? null);
  const [reviewing, setReviewing] = useState(initialEntry !== undefined);
  const formId = useId();
  const stepsId = useId();
  // Set by Continue and Back: the button pressed leaves with its step, so focus goes to the new step's
  // field (the fleet name; the chosen entry) rather than to the page's body.
  const stepMoved = useRef(false);
  useEffect(() => {
    if (!stepMoved.current) return;
    stepMoved.current = false;
    const step = document.getElementById(stepsId);
    const target = reviewing
      ? step?.querySelector<HTMLElement>("[data-step-focus]")
      : (step?.querySelector<HTMLElement>("input[type=radio]:checked") ??
        step?.querySelector<HTMLElement>("input[type=radio]"));
    target?.focus();
  }, [reviewing, stepsId]);
  const install = useInstall(workspace.id, (fleet) => {
    onInstalled(fleet);
    close();
  });

  function close() {
    setEntry(initialEntry ?? null);
    setReviewing(initialEntry !== undefined);
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
                stepMoved.current = true;
                setReviewing(false);
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
              onClick={() => {
                stepMoved.current = true;
                setReviewing(true);
              }}
            >
              Continue
            </Button>
          </>
        )
      }
    >
      <div id={stepsId}>
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
            <LibraryChoice workspaceId={workspace.id} value={entry} onChange={setEntry} />
            <p id={`${formId}-choose-hint`} className="ui-hint">
              {entry === null ? "Choose an entry to continue." : `${entry.name} is chosen.`}
            </p>
          </>
        )}
      </div>
    </Dialog>
  );
}

function useInstall(workspaceId: string, onInstalled: (fleet: InstalledFleet) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.fleets.create.mutationOptions({
      onSuccess: async (fleet) => {
        await queryClient.invalidateQueries({ queryKey: trpc.fleets.list.pathKey() });
        onInstalled(fleet);
      },
      // A 424 means the workspace's secrets differ from what the checklist showed: read them again.
      onError: (error) =>
        statusOf(error) === 424
          ? queryClient.invalidateQueries({
              queryKey: trpc.secrets.list.queryKey({ workspace_id: workspaceId }),
            })
          : undefined,
    }),
  );
}

function InstallReview({
  formId,
  workspace,
  entry,
  install,
  onSubmit,
}: {
  formId: string;
  workspace: { id: string; name: string };
  entry: LibraryItem;
  install: ReturnType<typeof useInstall>;
  onSubmit: (name: string) => void;
}) {
  const trpc = useTRPC();
  const nameId = useId();
  const [name, setName] = useState(entry.name);
  // Set by a submit with an empty name (spaces only, too): the entry's own name is not put in its place.
  const [nameMissing, setNameMissing] = useState(false);
  const [creating, setCreating] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const secrets = useQuery(trpc.secrets.list.queryOptions({ workspace_id: workspace.id }));
  const held = secrets.data ? new Set(secrets.data.secrets.map((secret) => secret.name)) : undefined;
  const required = entry.requirements.credentials;
  const missing = held ? required.filter((credential) => !held.has(credential)) : [];

  const problem = install.error ? problemOf(install.error) : null;
  const refusedFor = install.error?.data?.problem?.missing_credentials;
  const nameTaken = problem?.error_code === "UZ-FLEET-002";
  useEffect(() => {
    if (nameTaken || nameMissing) document.getElementById(nameId)?.focus();
  }, [nameTaken, nameMissing, nameId]);

  const { tools, network_hosts: hosts, runner_labels: labels } = entry.requirements;
  return (
    <div className="install">
      {entry.description ? <p className="install__description">{entry.description}</p> : null}
      <section className="install__section" aria-labelledby={`${formId}-credentials`}>
        <h3 id={`${formId}-credentials`} className="install__heading">
          Credentials
          {held && required.length > 0 ? (
            <span className="install__count">
              {missing.length === 0 ? "all held" : `${missing.length} of ${required.length} missing`}
            </span>
          ) : null}
        </h3>
        {secrets.error ? (
          <ProblemAlert problem={problemOf(secrets.error)} />
        ) : (
          <CredentialChecklist
            workspaceId={workspace.id}
            workspaceName={workspace.name}
            required={required}
            reasons={entry.required_credentials_reasons}
            held={held}
            creating={creating}
            onCreating={(credential) => {
              setCreating(credential);
              if (credential) setCreated(null);
            }}
            onCreated={(credential) => {
              setCreated(credential);
              install.reset();
            }}
          />
        )}
        <p className="install__created" role="status">
          {created ? `Created the secret ${created} in ${workspace.name}.` : null}
        </p>
      </section>
      {tools.length + hosts.length + labels.length > 0 ? (
        <dl className="install__needs">
          {tools.length > 0 ? <Needs term="Tools" values={tools} /> : null}
          {hosts.length > 0 ? <Needs term="Network hosts" values={hosts} /> : null}
          {labels.length > 0 ? <Needs term="Runner labels" values={labels} /> : null}
        </dl>
      ) : null}
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          setNameMissing(trimmed === "");
          if (trimmed !== "") onSubmit(trimmed);
          // Submitted blank again: the error stands, so the effect below does not run; focus it here.
          else if (nameMissing) document.getElementById(nameId)?.focus();
        }}
      >
        <TextField
          id={nameId}
          data-step-focus
          label="Fleet name"
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameMissing(false);
          }}
          autoComplete="off"
          maxLength={200}
          hint="Fleet names are unique within the workspace; install the same entry twice under two names."
          error={
            nameMissing
              ? "Enter a name for the fleet."
              : nameTaken
                ? "A fleet of this name exists here already: choose another."
                : null
          }
        />
      </form>
      {problem ? (
        <ProblemAlert
          problem={problem}
          details={
            refusedFor && refusedFor.length > 0 ? (
              <ul className="missing-list" aria-label="Missing credentials">
                {refusedFor.map((credential) => (
                  <li key={credential}>
                    <span className="secret-name">{credential}</span>:{" "}
                    {entry.required_credentials_reasons[credential] ?? "required by the definition."}
                  </li>
                ))}
              </ul>
            ) : null
          }
        />
      ) : null}
    </div>
  );
}

function Needs({ term, values }: { term: string; values: readonly string[] }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>
        {values.map((value) => (
          <code key={value} className="chip">
            {value}
          </code>
        ))}
      </dd>
    </div>
  );
}
