"use client";

import { CopyButton } from "@fleet/ui";
import { EntityName, parsePrincipal, shortId } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { approvalsHref, fleetHref } from "../../lib/urls.ts";
import type { AuditRow } from "./audit-table.tsx";

/** The gate's inbox tab after the act: a decided gate is in its outcome's tab, any other in pending. */
function gateStatus(row: AuditRow): "pending" | "approved" | "denied" {
  if (row.action === "approval.deny") return "denied";
  if (row.action === "approval.approve" && row.details.decided !== false) return "approved";
  return "pending";
}

/**
 * What an audited act was done to, by name and linked to its page: a gate to itself in the inbox (and the
 * fleet it belongs to), a grant to its fleet's grants, a schedule by when it fires, anything else as the
 * console names it everywhere (`EntityName`).
 */
export function AuditTarget({ row, me }: { row: AuditRow; me: string | undefined }) {
  const { kind, id } = parsePrincipal(row.target);
  const workspaceId = row.workspace_id ?? undefined;
  const fleetId = typeof row.details.fleet_id === "string" ? row.details.fleet_id : undefined;
  const onFleet =
    fleetId !== undefined ? (
      <>
        {" on "}
        <EntityName kind="fleet" id={fleetId} workspaceId={workspaceId} />
      </>
    ) : null;
  if ((kind === "approval_gate" || kind === "integration_grant") && workspaceId !== undefined) {
    const gate = kind === "approval_gate";
    const service = typeof row.details.service === "string" ? row.details.service : undefined;
    const href = gate
      ? approvalsHref({ workspaceId, status: gateStatus(row), gate: id })
      : fleetId !== undefined
        ? fleetHref({ workspaceId, fleetId, tab: "grants" })
        : undefined;
    const label = gate ? `approval ${shortId(id)}` : `grant${service ? ` of ${service}` : ""}`;
    return (
      <span className="entity-name audit-target" data-kind={kind} data-id={id}>
        {href ? <Link href={href}>{label}</Link> : label}
        <CopyButton
          value={row.target}
          label={`Copy the id of ${gate ? "approval gate" : "grant"} ${shortId(id)}`}
        />
        {onFleet}
      </span>
    );
  }
  return (
    <EntityName
      className="audit-target"
      principal={row.target}
      me={me}
      workspaceId={workspaceId}
      fleetId={fleetId}
    />
  );
}
