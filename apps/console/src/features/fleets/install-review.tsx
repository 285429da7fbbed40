"use client";

import { ProblemAlert, TextField } from "@fleet/ui";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { LibraryItem } from "../../lib/library-entries.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { CredentialChecklist } from "./credential-checklist.tsx";
import type { useInstall } from "./use-install.ts";
import "../../styles/inline.css";
import "../../styles/secret-name.css";
import "./install-review.css";

/**
 * The install's review: each credential the entry needs, held or missing (creatable in place), the tools,
 * hosts and runner labels it needs, and the fleet's name; the API's refusal with the credentials it misses.
 */
export function InstallReview({
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
