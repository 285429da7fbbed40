"use client";

import { Button, CheckIcon, LockIcon, PlusIcon, ProblemAlert } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";
import { PageHeader } from "../../components/page-header.tsx";
import { problemOf, statusOf } from "../../lib/problem.ts";
import { type ApiError, useTRPC } from "../../lib/trpc.ts";
import { CreateSecretDialog } from "./create-secret-dialog.tsx";
import { DeleteSecretDialog, ReplaceSecretDialog, type SecretTarget } from "./secret-action-dialogs.tsx";
import { SecretsTable } from "./secrets-table.tsx";
import { secretsHref } from "./urls.ts";
import { WorkspacePicker } from "./workspace-picker.tsx";

/** A refusal (4xx) answers the same on retry; an outage may not. */
const retryable = (error: ApiError) => (statusOf(error) ?? 500) >= 500;

/** The picker lists this many workspaces, the most one page of the list holds. */
const WORKSPACE_LIMIT = 100;

type Pending = { action: "replace" | "delete"; target: SecretTarget } | null;

export function SecretsView({ workspaceId }: { workspaceId: string | undefined }) {
  const trpc = useTRPC();
  const router = useRouter();
  const workspaces = useQuery(trpc.workspaces.list.queryOptions({ limit: WORKSPACE_LIMIT }));
  const items = workspaces.data?.items;
  const chosenId = workspaceId ?? items?.[0]?.id;
  const chosen = items?.find((workspace) => workspace.id === chosenId);
  const workspace = chosenId ? { id: chosenId, name: chosen?.name ?? "this workspace" } : undefined;

  // No workspace in the URL: show the first, and say so in the URL, so the view can be shared as it is.
  const fallback = workspaceId === undefined ? items?.[0]?.id : undefined;
  useEffect(() => {
    if (fallback) router.replace(secretsHref(fallback), { scroll: false });
  }, [fallback, router]);

  // No placeholder data across workspaces: a row from the previous workspace must never be acted on.
  const list = useQuery(trpc.secrets.list.queryOptions(chosenId ? { workspace_id: chosenId } : skipToken));
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  // What the last action did, said where the person's eyes are once its dialog closes; only in the
  // workspace it happened in.
  const [outcome, setOutcome] = useState<{ workspaceId: string; message: string } | null>(null);
  const done = outcome !== null && outcome.workspaceId === chosenId ? outcome.message : null;
  const setDone = (message: string | null) =>
    setOutcome(message !== null && chosenId ? { workspaceId: chosenId, message } : null);

  const openCreate = () => {
    setDone(null);
    setCreating(true);
  };
  const createButton = (variant: "primary" | "secondary") => (
    <Button variant={variant} icon={<PlusIcon />} onClick={openCreate}>
      Create secret
    </Button>
  );

  let body: ReactNode;
  if (workspaces.error) {
    body = (
      <div className="card__body">
        <ProblemAlert problem={problemOf(workspaces.error)}>
          {retryable(workspaces.error) ? (
            <Button size="sm" pending={workspaces.isFetching} onClick={() => workspaces.refetch()}>
              Try again
            </Button>
          ) : null}
        </ProblemAlert>
      </div>
    );
  } else if (items !== undefined && items.length === 0) {
    body = (
      <div className="empty-state">
        <p className="empty-state__title">No workspaces in this tenant</p>
        <p className="empty-state__text">
          Secrets belong to a workspace. Create one through the API (POST /v1/workspaces), then come back to
          add its secrets.
        </p>
      </div>
    );
  } else if (list.error) {
    const first = items?.[0];
    body = (
      // A failed list shows why, never an empty table that looks like "no secrets".
      <div className="card__body">
        <ProblemAlert problem={problemOf(list.error)}>
          {retryable(list.error) ? (
            <Button size="sm" pending={list.isFetching} onClick={() => list.refetch()}>
              Try again
            </Button>
          ) : null}
          {first && first.id !== chosenId ? (
            <Link className="ui-button ui-button--secondary ui-button--sm" href={secretsHref(first.id)}>
              Show the workspace {first.name}
            </Link>
          ) : null}
        </ProblemAlert>
      </div>
    );
  } else if (list.data === undefined || items === undefined || workspace === undefined) {
    body = (
      <p className="card__body muted" role="status">
        Loading secrets…
      </p>
    );
  } else if (list.data.secrets.length === 0) {
    body = (
      <div className="empty-state">
        <span className="empty-state__icon" aria-hidden="true">
          <LockIcon />
        </span>
        <p className="empty-state__title">No secrets in {workspace.name} yet</p>
        <p className="empty-state__text">
          Add a secret for each credential a fleet needs, such as a model provider’s API key or a token for a
          tool. Fleets read it by name; the value is encrypted and never shown again.
        </p>
        {createButton("secondary")}
      </div>
    );
  } else {
    body = (
      <SecretsTable
        secrets={list.data.secrets}
        workspaceName={workspace.name}
        onReplace={(secret) => {
          setDone(null);
          setPending({ action: "replace", target: { workspace, secret } });
        }}
        onDelete={(secret) => {
          setDone(null);
          setPending({ action: "delete", target: { workspace, secret } });
        }}
      />
    );
  }

  const count = list.data?.secrets.length;
  return (
    <div className="page">
      <PageHeader
        title="Secrets"
        description="Credentials your fleets use, such as provider API keys and tool tokens, stored encrypted per workspace. Values are write-only: once saved, neither the console nor the API shows them again."
        actions={list.data !== undefined && workspace !== undefined ? createButton("primary") : null}
      />
      <section className="card" aria-labelledby="secrets-heading">
        <h2 id="secrets-heading" className="ui-visually-hidden">
          Secrets
        </h2>
        <div className="card__toolbar">
          <WorkspacePicker
            workspaces={items}
            value={chosenId}
            more={workspaces.data?.next_cursor != null}
            onChange={(id) => router.push(secretsHref(id))}
          />
          <div className="card__toolbar-end">
            <p className="toolbar-status" role="status">
              {done ? (
                <>
                  <CheckIcon />
                  {done}
                </>
              ) : null}
            </p>
            {count !== undefined && count > 0 ? (
              <p className="toolbar-summary">
                {count} {count === 1 ? "secret" : "secrets"} · oldest first
              </p>
            ) : null}
          </div>
        </div>
        {body}
      </section>
      {workspace ? (
        <CreateSecretDialog
          open={creating}
          workspace={workspace}
          onClose={() => setCreating(false)}
          onCreated={(name) => setDone(`Created ${name}.`)}
        />
      ) : null}
      <ReplaceSecretDialog
        target={pending?.action === "replace" ? pending.target : null}
        onClose={() => setPending(null)}
        onDone={setDone}
      />
      <DeleteSecretDialog
        target={pending?.action === "delete" ? pending.target : null}
        onClose={() => setPending(null)}
        onDone={setDone}
      />
    </div>
  );
}
