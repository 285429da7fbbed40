import { resource } from "../../trpc.ts";
import { listIntegrationGrants } from "./list-integration-grants.ts";
import { listLeaseGrants } from "./list-lease-grants.ts";
import { requestIntegrationGrant } from "./request-integration-grant.ts";
import { revokeIntegrationGrant } from "./revoke-integration-grant.ts";

export const integrationGrantsRouter = resource(
  listIntegrationGrants,
  listLeaseGrants,
  requestIntegrationGrant,
  revokeIntegrationGrant,
);
