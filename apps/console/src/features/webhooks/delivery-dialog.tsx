"use client";

import { WEBHOOK_DELIVERY_ATTEMPTS_SHOWN } from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import { Button, CopyButton, Dialog, GuardedButton, JsonViewer, RelativeTime, StatusBadge } from "@fleet/ui";
import { useMemo } from "react";
import { Fact, none } from "../../components/fact.tsx";
import { formatDuration } from "../fleet-events/format.ts";
import { attemptOutcome, attemptSucceeded, type Delivery, deliveryStatusVariants } from "./delivery.ts";
import "../../styles/facts.css";
import "../../styles/inspect-dialog.css";
import "./deliveries.css";

/**
 * One delivery opened from the log (`delivery=<event id>` in the URL): what it is, the request every
 * attempt sends (the payload, before signing), and its latest attempts, newest first, each with what the
 * receiver answered or why nothing came. Read from the log's page: the API has no read of one delivery.
 */
export function DeliveryDialog({
  deliveryId,
  delivery,
  cannotWrite,
  retrying,
  onRetry,
  onClose,
}: {
  deliveryId: string | undefined;
  /** The delivery, when the log's page shown holds it. */
  delivery: Delivery | undefined;
  cannotWrite: string | null;
  retrying: boolean;
  onRetry: (delivery: Delivery) => void;
  onClose: () => void;
}) {
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
      {delivery === undefined ? (
        <p className="dialog-text">
          This delivery is not on the page of the log shown: it may have moved to a later page, or the filters
          leave it out. Close this and look for it in the log.
        </p>
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
