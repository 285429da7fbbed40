"use client";

import {
  Button,
  Callout,
  CopyButton,
  Dialog,
  formatUtc,
  RelativeTime,
  Skeleton,
  StatusBadge,
} from "@fleet/ui";
import { Fact, none } from "../../components/fact.tsx";
import { Link } from "../../components/link.tsx";
import { formatCount } from "../../lib/format.ts";
import { fleetHref } from "../../lib/urls.ts";
import { RunFrames } from "./run-frames.tsx";
import { type LeaseItem, leaseOutcomeVariants, leaseSentence } from "./status.ts";
import "../../styles/facts.css";
import "../../styles/inline.css";
import "../../styles/inspect-dialog.css";
import { LeaseExpiry } from "./lease-expiry-time.tsx";
import "./lease-dialog.css";

const count = (value: number | null) => (value === null ? none : formatCount(value));

/** The lease as text for a ticket: ids, times, the outcome; never the event's bodies. */
export function leaseDiagnostic(lease: LeaseItem, runnerId: string): string {
  return [
    `lease ${lease.lease_id} (${lease.kind}, fencing token ${lease.fencing_token}) on runner ${runnerId}`,
    `fleet ${lease.fleet_id}${lease.fleet_name ? ` (${lease.fleet_name})` : ""} in workspace ${lease.workspace_id}`,
    `event ${lease.event_id}`,
    `outcome ${lease.outcome}: ${leaseSentence(lease)}`,
    `created ${formatUtc(lease.created_at)}, expires ${formatUtc(lease.expires_at)}${
      lease.ended_at === null ? "" : `, ended ${formatUtc(lease.ended_at)}`
    }`,
  ].join("\n");
}

/**
 * One lease in full: what it ran, for which fleet, how it ended and what it used. Opened from the URL
 * (`lease=<id>`) when the lease is on the page shown.
 */
export function LeaseDialog({
  lease,
  leaseId,
  runnerId,
  loading,
  onClose,
}: {
  lease: LeaseItem | undefined;
  /** The page of leases is still loading. */
  loading: boolean;
  leaseId: string | undefined;
  runnerId: string;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={leaseId !== undefined}
      onClose={onClose}
      size="wide"
      title={lease ? `Lease of ${lease.fleet_name ?? "a deleted fleet"}` : "Lease"}
      description={leaseId ? <code className="event-id">{leaseId}</code> : undefined}
      footer={
        <>
          {lease ? (
            <span className="dialog-footer__start">
              <CopyButton value={leaseDiagnostic(lease, runnerId)} label="Copy diagnostic" labelled />
            </span>
          ) : null}
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </>
      }
    >
      {lease === undefined && loading ? (
        <Skeleton label="Loading the lease…" shape="lines" />
      ) : lease === undefined ? (
        <p className="muted">
          This lease is not on the page of leases shown. Go back to the first page of leases to find it.
        </p>
      ) : (
        <div className="event-detail" data-lease-id={lease.lease_id} data-outcome={lease.outcome}>
          <Callout
            tone={
              lease.outcome === "failed"
                ? "danger"
                : lease.outcome === "expired"
                  ? "warning"
                  : lease.outcome === "succeeded"
                    ? "success"
                    : "info"
            }
          >
            <p>{leaseSentence(lease)}</p>
          </Callout>
          <dl className="facts">
            <Fact term="Outcome">
              <StatusBadge status={lease.outcome} variants={leaseOutcomeVariants} />
            </Fact>
            <Fact term="Kind">{lease.kind === "reclaim" ? "Reclaimed after an expiry" : "Fresh"}</Fact>
            <Fact term="Fencing token">
              <span className="numeric">{lease.fencing_token}</span>
            </Fact>
            <Fact term="Fleet">
              {lease.fleet_name ? (
                <Link
                  href={fleetHref({
                    workspaceId: lease.workspace_id,
                    fleetId: lease.fleet_id,
                    tab: "events",
                    event: lease.event_id,
                  })}
                >
                  {lease.fleet_name}
                </Link>
              ) : (
                <code>{lease.fleet_id}</code>
              )}
            </Fact>
            <Fact term="Started">
              <RelativeTime value={lease.created_at} />
            </Fact>
            <Fact term={lease.ended_at === null ? "Expires" : "Ended"}>
              {lease.ended_at === null ? (
                <LeaseExpiry expiresAt={lease.expires_at} />
              ) : (
                <RelativeTime value={lease.ended_at} />
              )}
            </Fact>
            <Fact term="Model">
              {lease.model ? (
                <code>{lease.provider ? `${lease.provider}/${lease.model}` : lease.model}</code>
              ) : (
                none
              )}
            </Fact>
            <Fact term="Posture">{lease.posture ?? none}</Fact>
            <Fact term="Input tokens">{count(lease.input_tokens)}</Fact>
            <Fact term="Output tokens">{count(lease.output_tokens)}</Fact>
            <Fact term="Cached tokens">{count(lease.cached_tokens)}</Fact>
            <Fact term="Event">
              <code>{lease.event_id.slice(0, 8)}…</code>
            </Fact>
          </dl>
          {lease.fleet_name ? (
            <p className="muted lease-detail__note">
              The fleet link opens the event in its tenant's console, for people signed in to that tenant.
            </p>
          ) : null}
          <section className="run-frames__section" aria-labelledby="run-frames-heading">
            <h3 id="run-frames-heading" className="run-frames__heading">
              What the run published
            </h3>
            <RunFrames runnerId={runnerId} leaseId={lease.lease_id} />
          </section>
          <details className="diagnostic">
            <summary>Diagnostic text</summary>
            <pre>{leaseDiagnostic(lease, runnerId)}</pre>
          </details>
        </div>
      )}
    </Dialog>
  );
}
