"use client";

import { Button, RelativeTime, Skeleton } from "@fleet/ui";
import { useInfiniteQuery } from "@tanstack/react-query";
import { QueryProblem } from "../../components/query-problem.tsx";
import { formatRetention } from "../../lib/format.ts";
import { type ApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { formatMs, runSteps } from "./run-steps.ts";
import "./run-frames.css";

const PAGE_SIZE = 200;

/**
 * What the lease's run published on the live tail, in order: tool calls with their durations, the
 * answer joined from its chunks, progress and gate lines. Pages of 200 frames, more on request.
 */
export function RunFrames({ runnerId, leaseId }: { runnerId: string; leaseId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const frames = useInfiniteQuery<
    Awaited<ReturnType<typeof client.runners.listLeaseFrames.query>>,
    ApiError,
    { pages: Awaited<ReturnType<typeof client.runners.listLeaseFrames.query>>[] },
    readonly unknown[],
    string | null
  >({
    queryKey: [...trpc.runners.listLeaseFrames.pathKey(), { runnerId, leaseId }],
    initialPageParam: null,
    queryFn: ({ pageParam }) =>
      client.runners.listLeaseFrames.query({
        id: runnerId,
        lease_id: leaseId,
        limit: PAGE_SIZE,
        ...(pageParam ? { starting_after: pageParam } : {}),
      }),
    getNextPageParam: (page) => page.next_cursor,
  });

  if (frames.error) return <QueryProblem query={frames} />;
  if (frames.data === undefined) return <Skeleton label="Loading the run's frames…" shape="lines" />;
  const retention = formatRetention(frames.data.pages[0]?.retention_hours ?? 168);
  const steps = runSteps(frames.data.pages.flatMap((page) => page.items));
  if (steps.length === 0)
    return (
      <p className="muted run-frames__empty">
        This run published no frames. Frames are kept for {retention}, the first 2,000 of a run.
      </p>
    );
  return (
    <div className="run-frames">
      <ol className="run-frames__list" aria-label="What the run published">
        {steps.map((step) => (
          <li key={step.key} className={`run-frame run-frame--${step.type}`} data-step={step.type}>
            <span className="run-frame__time">
              <RelativeTime value={step.at} />
            </span>
            {step.type === "tool" ? (
              <div>
                <p>
                  Called <code>{step.name}</code>{" "}
                  <span className="muted">
                    {step.ms === null ? "· no completion published" : `· ${formatMs(step.ms)}`}
                  </span>
                </p>
                {step.args ? <pre className="run-frame__args">{step.args}</pre> : null}
                {step.progress.length > 0 ? (
                  <p className="muted run-frame__progress">
                    Still running at {step.progress.map(formatMs).join(", ")}
                  </p>
                ) : null}
              </div>
            ) : step.type === "answer" ? (
              <p className="run-frame__answer">{step.text}</p>
            ) : (
              <p className="muted">{step.text}</p>
            )}
          </li>
        ))}
      </ol>
      <p className="muted run-frames__note">
        Frames are kept for {retention}, the first 2,000 of a run.
        {frames.hasNextPage ? " More frames follow." : null}
      </p>
      {frames.hasNextPage ? (
        <Button size="sm" pending={frames.isFetchingNextPage} onClick={() => frames.fetchNextPage()}>
          Show the next {PAGE_SIZE} frames
        </Button>
      ) : null}
    </div>
  );
}
