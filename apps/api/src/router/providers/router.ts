import { resource } from "../../trpc.ts";
import { deleteTenantProvider } from "./delete-tenant-provider.ts";
import { getTenantProvider } from "./get-tenant-provider.ts";
import { replacePlatformKey } from "./replace-platform-key.ts";
import { replaceTenantProvider } from "./replace-tenant-provider.ts";
import { testTenantProvider } from "./test-tenant-provider.ts";

export const providersRouter = resource(
  deleteTenantProvider,
  getTenantProvider,
  replacePlatformKey,
  replaceTenantProvider,
  testTenantProvider,
);
