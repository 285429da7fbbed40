"use client";

import { Callout, GuardedButton, RelativeTime } from "@fleet/ui";
import { useId } from "react";
import { Link } from "../../components/link.tsx";
import { useLacking } from "../../lib/access.ts";
import { type Endpoint, endpointName } from "./endpoint.ts";
import { serviceDisable, serviceDisabled } from "./health.ts";
import { endpointHref } from "./urls.ts";
import "./webhooks.css";

/** "Disabled by the service 3 h ago": when, where the API knows it. */
function DisabledWhen({ at }: { at: number | null }) {
  return at === null ? null : (
    <>
      {" "}
      <RelativeTime value={at} />
    </>
  );
}

/**
 * The Webhooks page's notice of the endpoints the service turned off: each one's link, when and why, and
 * what to do. Nothing when none is; an endpoint a person disabled is their own doing and needs no notice.
 */
export function DisabledEndpointsNotice({ endpoints }: { endpoints: readonly Endpoint[] }) {
  const headingId = useId();
  const off = serviceDisabled(endpoints);
  if (off.length === 0) return null;
  return (
    <section className="webhook-disabled" aria-labelledby={headingId} data-disabled-count={off.length}>
      <Callout tone="warning">
        <p id={headingId}>
          <strong>
            {off.length === 1 ? "An endpoint was" : `${off.length} endpoints were`} disabled by the service
          </strong>
        </p>
        <ul className="webhook-disabled__list">
          {off.map((endpoint) => (
            <li key={endpoint.id} data-endpoint-id={endpoint.id}>
              <Link href={endpointHref({ workspaceId: endpoint.workspace_id, endpointId: endpoint.id })}>
                <code>{endpointName(endpoint)}</code>
              </Link>
              , disabled
              <DisabledWhen at={endpoint.disabled_at} />: {serviceDisable(endpoint)?.why}.
            </li>
          ))}
        </ul>
        <p>
          Nothing is sent to {off.length === 1 ? "it" : "them"} while disabled; the deliveries waiting are
          kept. Fix the receiver, then choose Enable in the endpoint's More actions menu: what waited is sent
          then.
        </p>
      </Callout>
    </section>
  );
}

/** The endpoint page's notice when the service turned it off: why, when, what to do, and Enable at hand. */
export function DisabledEndpointNotice({
  endpoint,
  enabling,
  onEnable,
}: {
  endpoint: Endpoint;
  enabling: boolean;
  onEnable: () => void;
}) {
  const headingId = useId();
  const cannotWrite = useLacking("webhook:write");
  const off = serviceDisable(endpoint);
  if (off === null) return null;
  return (
    <section className="webhook-disabled" aria-labelledby={headingId} data-reason={off.reason}>
      <Callout tone="warning">
        <p>
          <strong id={headingId}>
            Disabled by the service
            <DisabledWhen at={off.at} />
          </strong>
          : {off.why}. Nothing is sent to it while disabled; the deliveries waiting are kept.
        </p>
        <p>Fix the receiver, then enable the endpoint: what waited is sent then.</p>
        <GuardedButton
          size="sm"
          aria-label={`Enable webhook endpoint ${endpointName(endpoint)}`}
          unavailable={cannotWrite}
          pending={enabling}
          onClick={onEnable}
        >
          Enable
        </GuardedButton>
      </Callout>
    </section>
  );
}
