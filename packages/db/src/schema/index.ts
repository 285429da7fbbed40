export * from "./api-keys.ts";
export * from "./memberships.ts";
export * from "./runners.ts";
export * from "./service-settings.ts";
export * from "./sign-in-links.ts";
export * from "./tenants.ts";
export * from "./users.ts";
export * from "./workspaces.ts";
