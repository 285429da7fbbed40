"use client";

import { Button, PlusIcon, ProblemAlert, RelativeTime, Skeleton, StatusBadge } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { Link } from "../../components/link.tsx";
import { visibilityMeaning, visibilityVariants } from "../../lib/library-entries.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { fleetHref, libraryHref } from "../../lib/urls.ts";
import { DefinitionPart, Instructions, RequirementChips, TriggerList } from "../fleets/fleet-definition.tsx";
import { InstallFleetDialog } from "../fleets/install-fleet-dialog.tsx";
import { describeSource } from "./source.ts";
import "../../styles/card-parts.css";
import "../../styles/detail-page.css";
import "../../styles/requirements.css";
import "../../styles/secret-name.css";
import "../fleets/credential-checklist.css";
import "../fleets/fleet-definition.css";
import "./entry-view.css";
import { ToolRequirements } from "../fleets/fleet-tools.tsx";

/**
 * One library entry in full, before an install: what it does (its instructions), when it wakes, what it
 * needs and why, and where the definition came from.
 */
export function EntryView({
  workspaceId,
  libraryId,
}: {
  workspaceId: string | undefined;
  libraryId: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const back = libraryHref(workspaceId);
  const entry = useQuery(
    trpc.fleetLibraries.get.queryOptions(
      workspaceId ? { workspace_id: workspaceId, library_id: libraryId } : skipToken,
    ),
  );
  const workspaces = useQuery(trpc.workspaces.listVisible.queryOptions({ limit: 100 }));
  const workspaceName =
    workspaces.data?.items.find((item) => item.id === workspaceId)?.name ?? "this workspace";
  const [installing, setInstalling] = useState(false);
  const [done, setDone] = useState<ReactNode>(null);

  const crumbs = (name?: string) => (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        <li>
          <Link href={back}>Library</Link>
        </li>
        {name ? <li aria-current="page">{name}</li> : null}
      </ol>
    </nav>
  );

  if (workspaceId === undefined) {
    return (
      <div className="page page--fluid">
        {crumbs()}
        <ProblemAlert
          problem={{
            title: "No workspace in the address",
            detail:
              "A library entry is read through a workspace (?workspace=<id>). Open it from the Library.",
          }}
        />
      </div>
    );
  }
  if (entry.error) {
    return (
      <div className="page page--fluid">
        {crumbs()}
        <ProblemAlert problem={problemOf(entry.error)}>
          <Link className="ui-button ui-button--secondary ui-button--sm" href={back}>
            Back to the library
          </Link>
        </ProblemAlert>
      </div>
    );
  }
  const data = entry.data;
  if (data === undefined) {
    return (
      <div className="page page--fluid">
        {crumbs()}
        <Skeleton label="Loading the entry…" shape="page" />
      </div>
    );
  }
  const { credentials, network_hosts: hosts, runner_labels: labels } = data.requirements;
  const source = describeSource(data.source_ref);
  return (
    <div className="page page--fluid">
      {crumbs(data.name)}
      <header className="page-header fleet-header">
        <div>
          <div className="fleet-header__title">
            <h1 className="page-header__title">{data.name}</h1>
            <StatusBadge status={data.visibility} variants={visibilityVariants} />
          </div>
          {data.description ? <p className="page-header__description">{data.description}</p> : null}
          <p className="fleet-header__meta">
            <span>{visibilityMeaning[data.visibility]}</span>
            <span>
              Added <RelativeTime value={data.created_at} />
            </span>
          </p>
        </div>
        <div className="page-header__actions">
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setInstalling(true)}>
            Install this fleet
          </Button>
        </div>
      </header>
      <p className="toolbar-status" role="status">
        {done}
      </p>
      <div className="fleet-grid entry-grid">
        <section className="card" aria-labelledby="needs-heading">
          <header className="card__header">
            <h2 id="needs-heading" className="card__title">
              What it needs
            </h2>
          </header>
          <div className="definition__body">
            <DefinitionPart headingId="entry-credentials" title="Credentials">
              {credentials.length === 0 ? (
                <p className="muted definition__none">None.</p>
              ) : (
                <ul className="credential-list">
                  {credentials.map((name) => (
                    <li key={name} className="credential" data-credential={name}>
                      <div className="credential__row">
                        <div className="credential__text">
                          <span className="secret-name">{name}</span>
                          <span className="credential__reason">
                            {data.required_credentials_reasons[name]}
                          </span>
                        </div>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </DefinitionPart>
            <dl className="requirements">
              <ToolRequirements requirements={data.requirements} />
              <RequirementChips term="Network hosts" values={hosts} none="None" />
              <RequirementChips term="Runner labels" values={labels} none="Any runner" />
              <div>
                <dt>Source</dt>
                <dd>
                  <code className="source-ref">{source.text}</code>
                </dd>
              </div>
            </dl>
          </div>
        </section>
        <section className="card" aria-labelledby="entry-definition">
          <header className="card__header">
            <h2 id="entry-definition" className="card__title">
              Definition
            </h2>
          </header>
          <div className="definition__body">
            <DefinitionPart headingId="entry-triggers" title="Triggers">
              <TriggerList triggers={data.triggers} />
            </DefinitionPart>
            <DefinitionPart headingId="entry-instructions" title="Instructions">
              <Instructions text={data.instructions} labelledBy="entry-instructions" tall />
            </DefinitionPart>
          </div>
        </section>
      </div>
      <InstallFleetDialog
        open={installing}
        workspace={{ id: workspaceId, name: workspaceName }}
        initialEntry={data}
        onClose={() => setInstalling(false)}
        onInstalled={(fleet) => {
          // The new fleet opens; the notice covers the moment until its page has loaded.
          const opened = fleetHref({
            workspaceId: fleet.workspace_id,
            fleetId: fleet.fleet_id,
            tab: "events",
          });
          setDone(
            <>
              Installed {fleet.name}. <Link href={opened}>Open {fleet.name}</Link>
            </>,
          );
          router.push(opened);
        }}
      />
    </div>
  );
}
