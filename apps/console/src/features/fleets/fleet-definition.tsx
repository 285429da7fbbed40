import Link from "next/link";
import { entryHref } from "../library/entries.ts";
import type { FleetView } from "./status.ts";

/**
 * What the fleet was installed with, frozen at install: its instructions, the triggers that wake it and
 * what it needs. Later changes to the library entry do not reach an installed fleet.
 */
export function FleetDefinition({ fleet }: { fleet: FleetView }) {
  const libraryId = fleet.platform_library_id ?? fleet.tenant_library_id;
  const { credentials, tools, network_hosts: hosts, runner_labels: labels } = fleet.requirements;
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
        <div>
          <h3 id="instructions-heading" className="definition__heading">
            Instructions
          </h3>
          <Instructions text={fleet.instructions} labelledBy="instructions-heading" />
        </div>
        <div>
          <h3 id="triggers-heading" className="definition__heading">
            Triggers
          </h3>
          {fleet.triggers.length === 0 ? (
            <p className="muted definition__none">None: the fleet wakes only when it is sent a message.</p>
          ) : (
            <ul className="trigger-list">
              {fleet.triggers.map((trigger, index) => (
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
          )}
        </div>
        <div>
          <h3 id="requirements-heading" className="definition__heading">
            Requirements
          </h3>
          <dl className="requirements">
            <Requirement term="Credentials" values={credentials} none="None" />
            <Requirement term="Tools" values={tools} none="None" />
            <Requirement term="Network hosts" values={hosts} none="None" />
            <Requirement term="Runner labels" values={labels} none="Any runner" />
          </dl>
        </div>
      </div>
    </section>
  );
}

function Requirement({ term, values, none }: { term: string; values: readonly string[]; none: string }) {
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
