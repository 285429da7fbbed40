"use client";

import { CopyButton } from "@fleet/ui";
import { useNames } from "../lib/names.ts";
import { fleetHref, runnerHref } from "../lib/urls.ts";
import { Link } from "./link.tsx";
import "./entity-name.css";
import { UUID } from "../lib/uuid.ts";

/** What a principal's or record's kind is called before its name, mid-sentence ("from schedule …"). */
const kindWords: Record<string, string> = {
  user: "",
  api_key: "API key",
  cron: "schedule",
  schedule: "schedule",
  runner: "runner",
  fleet: "fleet",
  operator: "operator",
  cli: "CLI credential",
  cli_credential: "CLI credential",
  connector: "connector",
  webhook: "webhook",
  approval_gate: "approval",
  approval_policy: "approval policy",
  integration_grant: "grant",
  secret: "secret",
  tenant: "tenant",
  workspace: "workspace",
  key: "API key",
};

/** The system's own principals, in words. */
const systemWords: Record<string, string> = {
  "system:timeout": "the timeout",
  "system:fleet_stopped": "its fleet being stopped",
  "system:fleet_killed": "its fleet being killed",
  "system:fleet_deleted": "its fleet being deleted",
};

/** `kind:id` split at the first colon; a value without one is all id, of no known kind. */
export function parsePrincipal(value: string): { kind: string; id: string } {
  const at = value.indexOf(":");
  return at <= 0 ? { kind: "", id: value } : { kind: value.slice(0, at), id: value.slice(at + 1) };
}

/** A long id cut to its first 8 characters, as the console shows an id it has no name for. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

export interface EntityNameProps {
  /** A principal as the API writes it (`user:<id>`, `api_key:<id>`, `cron:<id>`, `runner:<id>`, …)… */
  principal?: string | undefined;
  /** …or a record of a known kind by its bare id (`fleet` and an id). */
  kind?: "user" | "api_key" | "schedule" | "runner" | "fleet" | undefined;
  id?: string | undefined;
  /** The workspace fleets and schedules are looked up in (and fleet links open in). */
  workspaceId?: string | undefined;
  /** The fleet a `cron:` principal's schedule belongs to. */
  fleetId?: string | undefined;
  /** The signed-in person's user id, shown as "(you)" beside their name. */
  me?: string | undefined;
  /** A name the caller already holds (a lease's fleet name), used before any lookup. */
  knownName?: string | null | undefined;
  /** Link a fleet or runner to its page (default); off inside a link or a sentence that has one. */
  link?: boolean;
  className?: string | undefined;
}

/**
 * A person, fleet, schedule, API key, runner, workspace or tenant by its name, with its id one copy-click away; a fleet or
 * runner name links to its page. Names come from the lists the console already reads (one cached query
 * per list, shared by every row); an id no list names (deleted, past the lists' first 1,000, or a list
 * this credential may not read) shows as a short id. The copy button copies the value as the API writes
 * it (`user:<id>` for a principal), which is what the actor filters take.
 */
export function EntityName(props: EntityNameProps) {
  const { principal, workspaceId, fleetId, me, knownName, link = true, className } = props;
  const parsed =
    principal !== undefined ? parsePrincipal(principal) : { kind: props.kind ?? "", id: props.id ?? "" };
  const kind = parsed.kind === "schedule" ? "cron" : parsed.kind;
  const { id } = parsed;
  // Only the list of this kind is read (one cached query per list, shared by every row).
  const names = useNames(kind === "key" ? "api_key" : kind, workspaceId, fleetId);
  const system = principal !== undefined ? systemWords[principal] : undefined;
  if (system !== undefined || kind === "system")
    return <span className={className ?? "entity-name"}>{system ?? principal}</span>;

  const looked = knownName ?? names?.get(id);
  const kindWord = kindWords[kind] ?? kind.replaceAll("_", " ");
  // A principal whose id is no record's (`webhook:slack:U123`, `connector:github`) is its own name.
  const selfNamed = !UUID.test(id) && kind !== "";
  const name = looked ?? (selfNamed ? id : undefined);
  const you = kind === "user" && me !== undefined && id === me;
  const spoken = [kindWord, name ?? shortId(id)].filter(Boolean).join(" ");

  // A fleet or runner links even unnamed: its page says whether it still exists.
  const href = !link
    ? undefined
    : kind === "fleet" && workspaceId
      ? fleetHref({ workspaceId, fleetId: id, tab: "events" })
      : kind === "runner" && UUID.test(id)
        ? runnerHref({ runnerId: id })
        : undefined;
  const shown =
    name === undefined ? (
      <code className="entity-name__id">{shortId(id)}</code>
    ) : (
      <span className="entity-name__name">{name}</span>
    );
  return (
    <span
      className={["entity-name", className].filter(Boolean).join(" ")}
      data-kind={kind || undefined}
      data-id={id}
      data-resolved={looked !== undefined || selfNamed || undefined}
    >
      {kindWord ? <span className="entity-name__kind">{kindWord} </span> : null}
      {href ? <Link href={href}>{shown}</Link> : shown}
      {you ? <span className="entity-name__you"> (you)</span> : null}
      {UUID.test(id) ? (
        <CopyButton value={principal ?? id} label={`Copy the id of ${you ? "you" : spoken}`} />
      ) : null}
    </span>
  );
}
