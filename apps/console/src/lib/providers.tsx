"use client";

import type { AppRouter } from "@fleet/api/router";
import { type Query, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { type ReactNode, useState } from "react";
import { apiFetch, unansweredOf } from "./api-fetch.ts";
import { retryable } from "./problem.ts";
import { TRPCProvider } from "./trpc.ts";

function retryQuery(failureCount: number, error: unknown): boolean {
  // A request that already waited out the client timeout is not retried at once: the page says the API
  // is not answering, and its own retry (or the next poll) asks again.
  if (unansweredOf(error)?.kind === "timeout") return false;
  // A refusal (4xx) will not change on retry; an outage might.
  return retryable(error) && failureCount < 2;
}

/** How often a query the API did not answer asks again while it is shown. */
const RECOVER_EVERY_MS = 15_000;

/**
 * A query whose last read failed for an outage (no answer, or a 5xx), not a refusal, asks again every
 * 15 s while its page is shown, so a page left open recovers by itself once the API is back: the shell's
 * signed-in person and workspace picker stayed "not known" and "Loading workspaces…" until a reload.
 * A query with its own interval (a poll) keeps that one.
 */
function recoverInterval(query: Query): number | false {
  const { status, error } = query.state;
  return status === "error" && retryable(error) ? RECOVER_EVERY_MS : false;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            retry: retryQuery,
            refetchOnWindowFocus: true,
            refetchInterval: recoverInterval,
          },
          mutations: { retry: false },
        },
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          // Same origin: the console's proxy forwards /trpc to the API with the httpOnly session cookie.
          url: "/trpc",
          // The API refuses cookie-authenticated mutations without it; a cross-site form cannot set it.
          headers: { "x-fleet-csrf": "1" },
          // Every call gives up after the client timeout, and an answer that is not JSON is named as such.
          fetch: apiFetch,
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
