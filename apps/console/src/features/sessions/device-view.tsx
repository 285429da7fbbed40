"use client";

import type { DeviceSignInView } from "@fleet/contracts";
import { Button, Callout, ProblemAlert, RelativeTime, TextField } from "@fleet/ui";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Fact } from "../../components/fact.tsx";
import { PageHeader } from "../../components/page-header.tsx";
import { forgetOnEdit } from "../../lib/field-errors.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { CliCredentialsPanel } from "../cli-credentials/cli-credentials-panel.tsx";
import "../../styles/device-card.css";
import "./device-view.css";

/**
 * Looks up the sign-in waiting with a user code, shows who asks, and lets the person approve or deny
 * it. The answer is the API's: an expired or answered code, or too many wrong ones, show its problem.
 */
export function DeviceView({ code }: { code: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const me = useQuery(trpc.users.getMe.queryOptions({}));
  const [typed, setTyped] = useState(code);
  const lookup = useMutation(trpc.sessions.getDeviceSignIn.mutationOptions());
  const approve = useMutation(trpc.sessions.approveDeviceSignIn.mutationOptions());
  const deny = useMutation(trpc.sessions.denyDeviceSignIn.mutationOptions());
  const looked = useRef<string | null>(null);

  // A code that came in the URL is looked up at once; the person still has to approve it.
  useEffect(() => {
    if (code === "" || looked.current === code) return;
    looked.current = code;
    approve.reset();
    deny.reset();
    lookup.mutate({ user_code: code });
  }, [code, lookup, approve, deny]);

  const answered: DeviceSignInView | undefined = approve.data ?? deny.data;
  const shown = answered ?? lookup.data;
  const answerProblem = approve.error ?? deny.error;

  return (
    <div className="page device-page">
      <PageHeader
        title="Approve a command-line sign-in"
        description="A terminal running fleetctl login asks to act as you. Approve it only if you started it and the code matches the one your terminal shows."
      />
      <section className="card device-card" aria-labelledby="device-code-heading">
        <h2 id="device-code-heading" className="device-card__heading">
          Code from your terminal
        </h2>
        <form
          className="device-form"
          onInput={forgetOnEdit(lookup)}
          onSubmit={(event) => {
            event.preventDefault();
            const next = typed.trim();
            if (next === "") return;
            // The code goes into the URL, so the page can be reloaded or shared; the effect looks it up.
            looked.current = null;
            router.replace(`/device?code=${encodeURIComponent(next)}`);
          }}
        >
          <TextField
            label="Code"
            name="code"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="BCDF-GHJK"
            hint="Eight letters, as your terminal prints them; case and the dash do not matter."
            maxLength={32}
          />
          <Button type="submit" pending={lookup.isPending}>
            Look up
          </Button>
        </form>
        {lookup.error ? <ProblemAlert problem={problemOf(lookup.error)} /> : null}
      </section>

      {shown && !lookup.isPending ? (
        <section
          className="card device-card"
          aria-labelledby="device-request-heading"
          data-state={shown.status}
        >
          <h2 id="device-request-heading" className="device-card__heading">
            {shown.client_name} asks to sign in as you
          </h2>
          <p className="device-code">
            <span className="ui-visually-hidden">Code </span>
            {shown.user_code}
          </p>
          <dl className="device-facts">
            <Fact term="Client">{shown.client_name}</Fact>
            <Fact term="Host">{shown.client_host ?? <span className="muted">not given</span>}</Fact>
            <Fact term="Asked">
              <RelativeTime value={shown.requested_at} />
            </Fact>
            <Fact term="Expires">
              <RelativeTime value={shown.expires_at} />
            </Fact>
            <Fact term="Signs in as">
              {me.data ? `${me.data.email} in ${me.data.tenant_name}` : "you, in this tenant"}
            </Fact>
          </dl>
          <p className="muted device-card__note">
            The client and host are what the terminal reported; the service cannot check them. The credential
            it receives acts with your current scopes and lasts up to 7 days, unless you revoke it.
          </p>
          {shown.status === "pending" && answered === undefined ? (
            <div className="device-actions">
              <Button
                variant="primary"
                pending={approve.isPending}
                onClick={() => approve.mutate({ user_code: shown.user_code })}
                aria-disabled={deny.isPending || undefined}
              >
                Approve sign-in
              </Button>
              <Button
                variant="danger"
                pending={deny.isPending}
                onClick={() => deny.mutate({ user_code: shown.user_code })}
                aria-disabled={approve.isPending || undefined}
              >
                Deny
              </Button>
            </div>
          ) : null}
          {answerProblem ? <ProblemAlert problem={problemOf(answerProblem)} /> : null}
          <div role="status" aria-live="polite">
            {shown.status === "approved" ? (
              <Callout tone="success">
                <strong>Approved.</strong> Return to your terminal: it signs in at its next poll. You can
                revoke this credential any time under Command-line sign-ins.
              </Callout>
            ) : shown.status === "denied" ? (
              <Callout tone="warning">
                <strong>Denied.</strong> The terminal is told the sign-in was refused.
              </Callout>
            ) : null}
          </div>
        </section>
      ) : null}
      <CliCredentialsPanel />
    </div>
  );
}
