"use client";

import { HistoryIcon, SegmentedControl } from "@fleet/ui";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { PageHeader } from "../../components/page-header.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { AuditFilters } from "./audit-filters.tsx";
import { AuditTable } from "./audit-table.tsx";
import { type AuditPosition, auditHref } from "./urls.ts";
import "./audit-view.css";

const scopes = [
  { value: "workspace", label: "This workspace" },
  { value: "tenant", label: "Whole tenant" },
] as const;

/**
 * The audit log, newest first: who approved, denied, created, revoked or changed what, and when. One
 * workspace's acts, or the whole tenant's (with API keys, which belong to no workspace). Scope, filters and
 * page live in the URL.
 */
export function AuditView({ position }: { position: AuditPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { scope, actor, action, since, until, after } = position;
  const choice = useWorkspaceChoice(position.workspaceId);
  const { chosenId } = choice;
  const here = (patch: Partial<AuditPosition>) => auditHref({ ...position, workspaceId: chosenId, ...patch });

  const filters = {
    ...(actor ? { actor } : {}),
    ...(action ? { action } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(after ? { starting_after: after } : {}),
  };
  const options = { placeholderData: keepPreviousData, refetchOnWindowFocus: "always" as const };
  const workspaceLog = useQuery(
    trpc.audit.listWorkspace.queryOptions(
      scope === "workspace" && chosenId ? { workspace_id: chosenId, ...filters } : skipToken,
      options,
    ),
  );
  const tenantLog = useQuery(
    trpc.audit.listTenant.queryOptions(scope === "tenant" ? filters : skipToken, options),
  );
  const list = scope === "tenant" ? tenantLog : workspaceLog;
  const userId = useQuery(trpc.users.getMe.queryOptions({})).data?.user_id;
  const workspaceNames = new Map(choice.items?.map((workspace) => [workspace.id, workspace.name]));

  const filtered = Boolean(actor || action || since !== undefined || until !== undefined);
  return (
    <div className="page page--wide audit">
      <PageHeader
        title="Audit log"
        description="Every approval answer, API key, secret and runner change, recorded in the same transaction as the change: who did it, to what, when, and the request id to find it in the API's logs."
      />
      <WorkspaceCard
        headingId="audit-heading"
        heading="Audit log"
        choice={choice}
        hrefFor={(id) => auditHref({ scope, workspaceId: id })}
        done={null}
        summary={
          <SegmentedControl
            label="Whose acts"
            value={scope}
            choices={scopes}
            onChange={(next) => router.push(here({ scope: next, after: undefined }))}
          />
        }
      >
        <AuditFilters
          values={{ actor, action, since, until }}
          clearHref={
            filtered
              ? here({
                  actor: undefined,
                  action: undefined,
                  since: undefined,
                  until: undefined,
                  after: undefined,
                })
              : undefined
          }
          onApply={(values) => router.push(here({ ...values, after: undefined }))}
        />
        <WorkspaceListBody
          choice={choice}
          list={list}
          loading="Loading the audit log…"
          noWorkspaces="Audited acts belong to a workspace or to the tenant. Create a workspace through the API (POST /v1/workspaces)."
          retryWorkspaces
          firstPageHref={after ? here({ after: undefined }) : undefined}
        >
          {(data, workspace) =>
            data.items.length === 0 ? (
              <div className="empty-state">
                <span className="empty-state__icon" aria-hidden="true">
                  <HistoryIcon />
                </span>
                <p className="empty-state__title">
                  {after
                    ? "No older entries"
                    : filtered
                      ? "No entries match the filters"
                      : "Nothing recorded yet"}
                </p>
                <p className="empty-state__text">
                  {after
                    ? "This page is past the oldest entry."
                    : filtered
                      ? "Widen the filters or clear them to see every entry."
                      : "Approval answers, API key and secret changes appear here as they happen."}
                </p>
              </div>
            ) : (
              <AuditTable
                rows={data.items}
                caption={
                  scope === "tenant"
                    ? "Audit log of the whole tenant, newest first"
                    : `Audit log of the workspace ${workspace.name}, newest first`
                }
                me={userId}
                workspaceNames={scope === "tenant" ? workspaceNames : undefined}
                busy={list.isPlaceholderData}
                pager={
                  after || data.next_cursor
                    ? {
                        label: "Pages of the audit log",
                        summary: `${data.items.length} shown · newest first`,
                        firstHref: after ? here({ after: undefined }) : undefined,
                        nextHref: data.next_cursor ? here({ after: data.next_cursor }) : undefined,
                      }
                    : undefined
                }
              />
            )
          }
        </WorkspaceListBody>
      </WorkspaceCard>
    </div>
  );
}
