import { resource } from "../../trpc.ts";
import { acquireLease } from "./acquire-lease.ts";
import { leaseCredentials } from "./lease-credentials.ts";
import { leaseContext, searchLeaseMemories } from "./lease-reads.ts";
import { releaseLease } from "./release-lease.ts";
import { renewLease } from "./renew-lease.ts";
import { reportLease } from "./report-lease.ts";
import { reportUsage } from "./report-usage.ts";

export const leasesRouter = resource(
  acquireLease,
  releaseLease,
  renewLease,
  reportLease,
  reportUsage,
  leaseCredentials,
  leaseContext,
  searchLeaseMemories,
);
