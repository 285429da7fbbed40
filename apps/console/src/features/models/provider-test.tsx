"use client";

import { Button, Callout, ProblemAlert } from "@fleet/ui";
import { useMutation } from "@tanstack/react-query";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { formatDuration } from "../fleet-events/format.ts";
import { providerTestWords } from "./provider-test-words.ts";
import { providerLabel } from "./urls.ts";

/**
 * Test connection: one minimal call through the server (`POST /v1/tenants/me/provider/test`), the same way
 * a run's calls go, and what came of it in words. It spends one output token on the provider's key.
 */
export function useProviderTest() {
  const trpc = useTRPC();
  return useMutation(trpc.providers.testTenant.mutationOptions());
}

export function TestConnectionButton({ test }: { test: ReturnType<typeof useProviderTest> }) {
  return (
    <Button variant="ghost" pending={test.isPending} onClick={() => test.mutate()}>
      Test connection
    </Button>
  );
}

export function TestConnectionResult({ test }: { test: ReturnType<typeof useProviderTest> }) {
  if (test.error) return <ProblemAlert problem={problemOf(test.error)} />;
  const result = test.data;
  if (result === undefined) return null;
  const whose = result.source === "platform" ? "the platform default" : "your provider";
  if (result.ok) {
    return (
      <div role="status" className="provider-test" data-outcome="ok">
        <Callout tone="success">
          <p>
            <strong>Connected.</strong> {providerLabel(result.provider ?? "")} ({whose}) answered with{" "}
            <code>{result.model}</code> in {formatDuration(result.latency_ms ?? 0)}.
          </p>
        </Callout>
      </div>
    );
  }
  const failure = result.failure;
  const words = providerTestWords(failure?.error_code ?? "");
  return (
    <div role="status" className="provider-test" data-outcome="failed" data-code={failure?.error_code}>
      <Callout tone="danger">
        <p>
          <strong>{words.title}.</strong> {words.advice}
        </p>
        {result.provider ? (
          <p className="muted">
            Tested {providerLabel(result.provider)} ({whose}), model <code>{result.model}</code>.
          </p>
        ) : null}
        {failure ? <p className="provider-test__detail">{failure.detail}</p> : null}
      </Callout>
    </div>
  );
}
