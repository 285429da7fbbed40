"use client";

import { GuardedButton, LockIcon, PlusIcon } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PageHeader } from "../../components/page-header.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useLacking } from "../../lib/access.ts";
import { usePageActions } from "../../lib/commands.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { CreateSecretDialog } from "./create-secret-dialog.tsx";
import { DeleteSecretDialog, ReplaceSecretDialog, type SecretTarget } from "./secret-action-dialogs.tsx";
import { SecretsTable } from "./secrets-table.tsx";
import { secretsHref } from "./urls.ts";

type Pending = { action: "replace" | "delete"; target: SecretTarget } | null;

export function SecretsView({ workspaceId }: { workspaceId: string | undefined }) {
  const trpc = useTRPC();
  const choice = useWorkspaceChoice(workspaceId);
  const { chosenId, workspace } = choice;

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
  const cannotWrite = useLacking("secret:write");
  usePageActions(
    chosenId && !cannotWrite ? [{ label: "Create secret", keywords: "new credential", run: openCreate }] : [],
  );
  const createButton = (variant: "primary" | "secondary") => (
    <GuardedButton variant={variant} icon={<PlusIcon />} unavailable={cannotWrite} onClick={openCreate}>
      Create secret
    </GuardedButton>
  );

  const count = list.data?.secrets.length;
  return (
    <div className="page">
      <PageHeader
        title="Secrets"
        description="Credentials your fleets use, such as provider API keys and tool tokens, stored encrypted per workspace. Values are write-only: once saved, neither the console nor the API shows them again."
        actions={list.data !== undefined && workspace !== undefined ? createButton("primary") : null}
      />
      <WorkspaceCard
        headingId="secrets-heading"
        heading="Secrets"
        choice={choice}
        hrefFor={secretsHref}
        done={done}
        summary={
          count !== undefined && count > 0 ? (
            <p className="toolbar-summary">
              {count} {count === 1 ? "secret" : "secrets"} · oldest first
            </p>
          ) : null
        }
      >
        <WorkspaceListBody
          choice={choice}
          list={list}
          waitForNames
          loading="Loading secrets…"
          noWorkspaces="Secrets belong to a workspace. Create one through the API (POST /v1/workspaces), then come back to create its secrets."
          retryWorkspaces
          workspaceHref={secretsHref}
        >
          {(data, workspace) =>
            data.secrets.length === 0 ? (
              <div className="empty-state">
                <span className="empty-state__icon" aria-hidden="true">
                  <LockIcon />
                </span>
                <p className="empty-state__title">No secrets in {workspace.name} yet</p>
                <p className="empty-state__text">
                  Add a secret for each credential a fleet needs, such as a model provider’s API key or a
                  token for a tool. Fleets read it by name; the value is encrypted and never shown again.
                </p>
                {createButton("secondary")}
              </div>
            ) : (
              <SecretsTable
                secrets={data.secrets}
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
            )
          }
        </WorkspaceListBody>
      </WorkspaceCard>
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
