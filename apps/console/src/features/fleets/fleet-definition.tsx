import type { ReactNode } from "react";
import { Link } from "../../components/link.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { entryHref } from "../../lib/urls.ts";
import { ToolRequirements } from "./fleet-tools.tsx";
import "../../styles/card-parts.css";
import "../../styles/inline.css";
import "../../styles/requirements.css";
import "./fleet-definition.css";

/**
 * What the fleet was installed with, frozen at install: its instructions, the triggers that wake it and
 * what it needs. Later changes to the library entry do not reach an installed fleet.
 */
export function FleetDefinition({ fleet }: { fleet: FleetView }) {
  const libraryId = fleet.platform_library_id ?? fleet.tenant_library_id;
  const { credentials, network_hosts: hosts, runner_labels: labels } = fleet.requirements;
  return (
    <section className="card definition" aria-labelledby="definition-heading">
      <header className="card__header">
        <h2 id="definition-heading" className="card__title">
          Definition
        </h2>
        {libraryId ? (
          <Link className="card__header-link" href={entryHref(fleet.workspace_id, libraryId)}>
            {fleet.platform_library_id ? "Platform" : "Tenant"} library entry
          </Link>
        ) : null}
      </header>
      <div className="definition__body">
        <DefinitionPart headingId="instructions-heading" title="Instructions">
          <Instructions text={fleet.instructions} labelledBy="instructions-heading" />
        </DefinitionPart>
        <DefinitionPart headingId="triggers-heading" title="Triggers">
          <TriggerList triggers={fleet.triggers} />
        </DefinitionPart>
        <DefinitionPart headingId="requirements-heading" title="Requirements">
          <dl className="requirements">
            <RequirementChips term="Credentials" values={credentials} none="None" />
            <ToolRequirements requirements={fleet.requirements} />
            <RequirementChips term="Network hosts" values={hosts} none="None" />
            <RequirementChips term="Runner labels" values={labels} none="Any runner" />
          </dl>
        </DefinitionPart>
      </div>
    </section>
  );
}

/** One part of a definition (its instructions, triggers, requirements…) under its own heading. */
export function DefinitionPart({
  headingId,
  title,
  children,
}: {
  headingId: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div>
      <h3 id={headingId} className="definition__heading">
        {title}
      </h3>
      {children}
    </div>
  );
}

/** What a definition needs of one kind (tools, hosts, labels…), each as a chip, or what none means. */
export function RequirementChips({
  term,
  values,
  none,
}: {
  term: string;
  values: readonly string[];
  none: string;
}) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>
        {values.length === 0 ? (
          <span className="muted">{none}</span>
        ) : (
          values.map((value) => (
            <code key={value} className="chip">
              {value}
            </code>
          ))
        )}
      </dd>
    </div>
  );
}

/** The cron triggers that wake a fleet, or that it wakes only on messages. */
export function TriggerList({
  triggers,
}: {
  triggers: readonly Pick<FleetView["triggers"][number], "cron" | "timezone" | "message">[];
}) {
  if (triggers.length === 0) {
    return <p className="muted definition__none">None: the fleet wakes only when it is sent a message.</p>;
  }
  return (
    <ul className="trigger-list">
      {triggers.map((trigger, index) => (
        // Triggers have no id of their own; their place in the definition is fixed at install.
        <li key={`${index}:${trigger.cron}`} className="trigger">
          <span className="trigger__when">
            <code>{trigger.cron}</code>
            <span className="muted">{trigger.timezone}</span>
          </span>
          <span className="trigger__message">{trigger.message}</span>
        </li>
      ))}
    </ul>
  );
}

/** A definition's instructions as written, in a scrolling box the keyboard can reach. */
export function Instructions({
  text,
  labelledBy,
  tall,
}: {
  text: string;
  labelledBy: string;
  tall?: boolean;
}) {
  const className = tall ? "instructions instructions--tall" : "instructions";
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className={className} tabIndex={0} aria-labelledby={labelledBy}>
      <pre>{text}</pre>
    </section>
  );
}
