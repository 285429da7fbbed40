import { resource } from "../../trpc.ts";
import { getTenantProvider } from "./get-tenant-provider.ts";
import { replacePlatformKey } from "./replace-platform-key.ts";
import { replaceTenantProvider } from "./replace-tenant-provider.ts";

export const providersRouter = resource(getTenantProvider, replacePlatformKey, replaceTenantProvider);
