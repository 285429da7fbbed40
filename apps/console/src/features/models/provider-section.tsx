"use client";

import { Badge, Button, RelativeTime } from "@fleet/ui";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Fact } from "../../components/fact.tsx";
import { QueryProblem } from "../../components/query-problem.tsx";
import { statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ProviderDialog, RemoveProviderDialog } from "./provider-dialogs.tsx";
import { TestConnectionButton, TestConnectionResult, useProviderTest } from "./provider-test.tsx";
import { providerLabel } from "./urls.ts";
import "../../styles/card-parts.css";
import "./model-form.css";
import "./skeleton.css";
import "./provider-section.css";

/**
 * The tenant's provider (`/v1/tenants/me/provider`): which provider and model the tenant's fleets use,
 * and on whose key. A section of the Models page, since choosing one means choosing a catalogue model.
 */
export function ProviderSection() {
  const trpc = useTRPC();
  const headingId = useId();
  const current = useQuery(trpc.providers.getTenant.queryOptions(undefined, { retry: false }));
  const [setting, setSetting] = useState(false);
  const [removing, setRemoving] = useState(false);
  const test = useProviderTest();
  const status = current.error ? statusOf(current.error) : undefined;
  const notSet = status === 404;
  // Dev mode with no provider anywhere: the gateway's calls go to the scripted demo model (pnpm start).
  const scripted = notSet && current.error?.data?.problem?.current_state === "scripted_demo_model";
  const forbidden = status === 403;

  return (
    <section className="card provider-card" aria-labelledby={headingId} aria-busy={current.isPending}>
      <header className="card__header">
        <h2 id={headingId} className="card__title">
          Your provider
        </h2>
        {current.data ? (
          <Badge tone="success">{providerLabel(current.data.provider)}</Badge>
        ) : scripted ? (
          <Badge tone="warning">Scripted demo model</Badge>
        ) : notSet ? (
          <Badge tone="neutral">Platform default</Badge>
        ) : null}
      </header>
      <div className="card__body">
        {current.isPending ? (
          <div className="skeleton-rows" role="status" aria-label="Loading your provider">
            <span className="skeleton-line" />
            <span className="skeleton-line" />
          </div>
        ) : forbidden ? (
          <p className="muted">
            Seeing and changing the tenant's provider needs the <code>workspace:admin</code> scope, which you
            do not hold. Ask an owner of this tenant.
          </p>
        ) : scripted ? (
          <p>
            <strong>Scripted demo model — not a real model.</strong> No provider is set here or on the
            platform, so in dev mode your fleets' model calls go to a local script that plays the demo agent's
            steps (read the status board, ask to remember it, answer). Set a provider to use a real model:
            OpenAI, Anthropic, or any OpenAI-compatible endpoint.
          </p>
        ) : notSet ? (
          <p>
            No provider of your own is set: your fleets run on the platform default provider and key. Set one
            to use your own key, or an OpenAI-compatible endpoint.
          </p>
        ) : current.error ? (
          <QueryProblem query={current} />
        ) : (
          <dl className="facts">
            <Fact term="Provider">{providerLabel(current.data.provider)}</Fact>
            <Fact term="Model">
              <code>{current.data.model}</code>
            </Fact>
            {current.data.base_url ? (
              <Fact term="Base URL">
                <code className="provider-url">{current.data.base_url}</code>
              </Fact>
            ) : null}
            <Fact term="API key">{current.data.has_api_key ? "Held, sealed (never shown)" : "None"}</Fact>
            <Fact term="Changed">
              <RelativeTime value={current.data.updated_at} />
            </Fact>
          </dl>
        )}
        {forbidden || (current.error && !notSet) || current.isPending ? null : (
          <div className="provider-card__actions">
            <Button
              variant="secondary"
              onClick={() => {
                // A test's answer speaks of the provider as it was: a change makes it stale.
                test.reset();
                setSetting(true);
              }}
            >
              Set provider
            </Button>
            <TestConnectionButton test={test} />
            {current.data ? (
              <Button
                variant="ghost"
                onClick={() => {
                  test.reset();
                  setRemoving(true);
                }}
              >
                Remove provider
              </Button>
            ) : null}
          </div>
        )}
        <TestConnectionResult test={test} />
      </div>
      {setting ? <ProviderDialog current={current.data ?? null} onClose={() => setSetting(false)} /> : null}
      {removing ? <RemoveProviderDialog onClose={() => setRemoving(false)} /> : null}
    </section>
  );
}

/** The tenant's provider as the API answers it. */
