"use client";

import { WEBHOOK_DELIVERY_ATTEMPTS_SHOWN } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import {
  Button,
  CopyButton,
  Dialog,
  GuardedButton,
  JsonViewer,
  ProblemAlert,
  RelativeTime,
  Skeleton,
  StatusBadge,
} from "@fleet/ui";
import { useMemo } from "react";
import { Fact, none } from "../../components/fact.tsx";
import { problemOf, retryable } from "../../lib/problem.ts";
import { formatDuration } from "../fleet-events/format.ts";
import { attemptOutcome, attemptSucceeded, type Delivery, deliveryStatusVariants } from "./delivery.ts";
import type { OpenedDelivery } from "./use-delivery.ts";
import "../../styles/facts.css";
import "../../styles/inspect-dialog.css";
import "./deliveries.css";

/**
 * One delivery opened from the log (`delivery=<event id>` in the URL): what it is, the request every
 * attempt sends (the payload, before signing), and its latest attempts, newest first, each with what the
 * receiver answered or why nothing came. Taken from the log's page when it holds the delivery, else read on
 * its own (`useOpenedDelivery`): loading, then the delivery or the API's refusal (an id naming no delivery
 * of this endpoint is 404 UZ-WEBHOOK-010).
 */
export function DeliveryDialog({
  deliveryId,
  opened,
  cannotWrite,
  retrying,
  onRetry,
  onClose,
}: {
  deliveryId: string | undefined;
  opened: OpenedDelivery;
  cannotWrite: string | null;
  retrying: boolean;
  onRetry: (delivery: Delivery) => void;
  onClose: () => void;
}) {
  const { delivery, error } = opened;
  const request = useMemo(() => (delivery ? JSON.stringify(delivery.request) : ""), [delivery]);
  return (
    <Dialog
      open={deliveryId !== undefined}
      onClose={onClose}
      size="wide"
      title={delivery ? `${delivery.type} delivery` : "Delivery"}
      description={deliveryId ? <code className="event-id">{deliveryId}</code> : undefined}
      footer={
        <>
          {delivery ? (
            <span className="dialog-footer__start">
              <CopyButton value={delivery.id} label="Copy the webhook-id" />
              <GuardedButton unavailable={cannotWrite} pending={retrying} onClick={() => onRetry(delivery)}>
                Retry now
              </GuardedButton>
            </span>
          ) : null}
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </>
      }
    >
      {error ? (
        <ProblemAlert problem={problemOf(error)}>
          {retryable(error) ? (
            <Button size="sm" onClick={opened.refetch}>
              Try again
            </Button>
          ) : null}
        </ProblemAlert>
      ) : delivery === undefined ? (
        <Skeleton label="Loading the delivery…" shape="lines" />
      ) : (
        <div className="delivery-detail" data-delivery-id={delivery.id} data-status={delivery.status}>
          <dl className="facts delivery-facts">
            <Fact term="Status">
              <StatusBadge status={delivery.status} variants={deliveryStatusVariants} />
            </Fact>
            <Fact term="Attempts">{delivery.attempt_count}</Fact>
            <Fact term="Next attempt">
              {delivery.next_attempt_at === null ? none : <RelativeTime value={delivery.next_attempt_at} />}
            </Fact>
            <Fact term="Created">
              <RelativeTime value={delivery.created_at} />
            </Fact>
            <Fact term="Resource">
              <code>{delivery.resource}</code>
            </Fact>
          </dl>
          <JsonViewer label="Request" text={request} />
          <section className="delivery-attempts" aria-labelledby="delivery-attempts-heading">
            <h3 id="delivery-attempts-heading" className="delivery-attempts__title">
              Attempts
              {/* The count runs ahead of the list while an attempt is in flight: only a full list is "latest". */}
              {delivery.attempts.length === WEBHOOK_DELIVERY_ATTEMPTS_SHOWN &&
              delivery.attempt_count > delivery.attempts.length
                ? ` (latest ${delivery.attempts.length} of ${delivery.attempt_count})`
                : ""}
            </h3>
            {delivery.attempts.length === 0 ? (
              <p className="muted">Not tried yet: the first attempt is due within seconds.</p>
            ) : (
              <ol className="delivery-attempts__list" aria-label="Attempts, newest first">
                {delivery.attempts.map((attempt) => (
                  <li
                    key={attempt.attempt}
                    className="delivery-attempt"
                    data-attempt={attempt.attempt}
                    data-ok={attemptSucceeded(attempt) || undefined}
                  >
                    <span className="delivery-attempt__head">
                      <strong>Attempt {attempt.attempt}</strong>
                      <RelativeTime value={attempt.at} />
                    </span>
                    <span className="delivery-attempt__outcome">
                      <span className="delivery-attempt__status">{attemptOutcome(attempt)}</span>
                      <span className="muted">{formatDuration(attempt.latency_ms)}</span>
                    </span>
                    {attempt.response_head ? (
                      <>
                        <span className="muted">The answer's first bytes:</span>
                        <pre className="delivery-attempt__answer">{attempt.response_head}</pre>
                      </>
                    ) : null}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      )}
    </Dialog>
  );
}
