import type { AppRouter } from "@fleet/api/router";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, type TRPCClient } from "@trpc/client";
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { env } from "../env.ts";

/**
 * How long a page's server waits for its first data. Past it the page is sent as before, with skeletons,
 * and the browser asks for the data itself: a slow API delays the page by this much at most.
 */
const PREFETCH_BUDGET_MS = 1_500;

/**
 * What a page asks for ahead: `client.prefetchQuery` of the same `queryOptions` its components call, so the
 * keys are theirs (`api`, the tRPC client, for queries built by hand, such as the names). Each promise
 * settles, refused or not (`prefetchQuery` never throws).
 */
export type PrefetchList = (
  trpc: TRPCOptionsProxy<AppRouter>,
  client: QueryClient,
  api: TRPCClient<AppRouter>,
) => Promise<unknown>[];

/**
 * Asks the API for a page's first data while the page is rendered on the console's server, and hands the
 * answers to the browser's query cache with the HTML, so the page arrives with its data instead of asking
 * for it after hydration (one round trip through the console's proxy fewer; issue 17 §5). The request
 * carries the browser's cookies as the browser's own `/trpc` calls do. A refusal or an API that does not
 * answer in time hands nothing over: the components then ask as they always did and show the refusal in
 * their own words.
 */
export async function Prefetch({ queries, children }: { queries: PrefetchList; children: ReactNode }) {
  const cookie = (await headers()).get("cookie");
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (cookie !== null) {
    const signal = AbortSignal.timeout(PREFETCH_BUDGET_MS);
    const client = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${env().apiUrl}/trpc`,
          headers: { cookie },
          fetch: (url, init) => fetch(url, { ...init, cache: "no-store", signal }),
        }),
      ],
    });
    const trpc = createTRPCOptionsProxy<AppRouter>({ client, queryClient });
    await Promise.all(queries(trpc, queryClient, client));
  }
  // Only answered queries travel (dehydrate's default): a failed one is asked again in the browser.
  return <HydrationBoundary state={dehydrate(queryClient)}>{children}</HydrationBoundary>;
}
