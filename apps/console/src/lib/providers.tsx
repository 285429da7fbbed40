"use client";

import type { AppRouter } from "@fleet/api/router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { type ReactNode, useState } from "react";
import { apiFetch, unansweredOf } from "./api-fetch.ts";
import { type ApiError, TRPCProvider } from "./trpc.ts";

function retryable(failureCount: number, error: unknown): boolean {
  // A request that already waited out the client timeout is not retried at once: the page says the API
  // is not answering, and its own retry (or the next poll) asks again.
  if (unansweredOf(error)?.kind === "timeout") return false;
  // A refusal (4xx) will not change on retry; an outage might.
  const status = error instanceof TRPCClientError ? (error as ApiError).data?.httpStatus : undefined;
  return (status === undefined || status >= 500) && failureCount < 2;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 15_000, retry: retryable, refetchOnWindowFocus: true },
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
