"use client";

import { formatUtc } from "@fleet/ui";
import { useEffect, useState } from "react";
import { expiryWords } from "./lease-expiry.ts";

/** A running lease's expiry, counted down each second while shown; the UTC time on hover. */
export function LeaseExpiry({ expiresAt }: { expiresAt: number }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={new Date(expiresAt).toISOString()} title={formatUtc(expiresAt)} data-expiry>
      {now === null ? formatUtc(expiresAt) : expiryWords(expiresAt, now)}
    </time>
  );
}
