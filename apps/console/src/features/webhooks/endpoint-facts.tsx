"use client";

import { Badge, RelativeTime } from "@fleet/ui";
import { Fact } from "../../components/fact.tsx";
import { type Endpoint, endpointName } from "./endpoint.ts";
import { EndpointHealth } from "./endpoint-health.tsx";
import { disabledWords } from "./health.ts";
import "../../styles/card-parts.css";
import "../../styles/facts.css";
import "./deliveries.css";

/** Enabled, or Disabled (amber when the service did it). */
export function EndpointState({ endpoint }: { endpoint: Endpoint }) {
  const off = disabledWords(endpoint);
  return off === null ? (
    <Badge tone="success">Enabled</Badge>
  ) : (
    <Badge tone={endpoint.disabled_reason ? "warning" : "neutral"}>Disabled</Badge>
  );
}

/** What the endpoint is: where it posts, what, for which fleets, how it has been answering, its secret's age. */
export function EndpointFacts({
  endpoint,
  fleetName,
}: {
  endpoint: Endpoint;
  fleetName: string | undefined;
}) {
  const off = disabledWords(endpoint);
  return (
    <section className="card" aria-labelledby="endpoint-facts-heading">
      <header className="card__header">
        <h2 id="endpoint-facts-heading" className="card__title">
          Endpoint
        </h2>
      </header>
      <div className="card__body">
        <dl className="facts endpoint-facts">
          <Fact term="URL">
            <code>{endpoint.url}</code>
          </Fact>
          <Fact term="Event types">
            <ul className="webhook-types" aria-label={`Event types of ${endpointName(endpoint)}`}>
              {endpoint.event_types.map((type) => (
                <li key={type}>
                  <code>{type}</code>
                </li>
              ))}
            </ul>
          </Fact>
          <Fact term="Fleets">{endpoint.fleet_id === null ? "All fleets" : (fleetName ?? "One fleet")}</Fact>
          <Fact term="Status">{off ?? "Enabled"}</Fact>
          <Fact term="Last 24 hours">
            <EndpointHealth health={endpoint.health} />
          </Fact>
          {endpoint.secret_created_at === null ? (
            <Fact term="Signed with">
              The workspace&apos;s notice secret, in today&apos;s notice format (the approval policy&apos;s
              escalation URL)
            </Fact>
          ) : (
            <>
              <Fact term="Secret created">
                <RelativeTime value={endpoint.secret_created_at} />
              </Fact>
              <Fact term="Previous secret">
                {endpoint.previous_secret_expires_at === null ? (
                  <span className="muted">None signing</span>
                ) : (
                  <>
                    Signs until <RelativeTime value={endpoint.previous_secret_expires_at} />
                  </>
                )}
              </Fact>
            </>
          )}
        </dl>
      </div>
    </section>
  );
}
