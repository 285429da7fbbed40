/** The longest a lease may live from its grant: no renewal extends it past this. */
export const LEASE_MAX_MS = 12 * 60 * 60 * 1000;
