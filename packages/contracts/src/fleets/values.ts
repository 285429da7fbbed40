// Plain values of fleets, without the schema library: the console's browser code imports them from here
// (docs/decisions/console-performance.md, "A page's first data comes with its HTML").

export const fleetStatuses = ["installing", "active", "paused", "stopped", "killed"] as const;
export type FleetStatus = (typeof fleetStatuses)[number];

/** The largest message a person can send a fleet, in bytes. */
export const MESSAGE_LIMIT = 32 * 1024;

/** How long a message's Idempotency-Key answers with its first result. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The longest Idempotency-Key the route takes, in characters (printable ASCII only). */
export const IDEMPOTENCY_KEY_LIMIT = 255;
