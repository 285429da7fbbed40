# syntax=docker/dockerfile:1
# One Dockerfile, two images: `--target api` and `--target console` (compose.yaml builds both).
# docs/deploy.md describes running them; scripts/check-container.mjs checks this file's rules.

ARG NODE_IMAGE=node:24.11.1-bookworm-slim

# --- build: the workspace installed from the lockfile, then each app's production files alone ---
FROM ${NODE_IMAGE} AS build
ENV TURBO_TELEMETRY_DISABLED=1 \
    NEXT_TELEMETRY_DISABLED=1 \
    CI=true
RUN npm install --global pnpm@10.34.8 && npm cache clean --force
WORKDIR /src
# The lockfile alone first: the package store is a layer of its own, rebuilt only when it changes. The
# patches go with it (pnpm-workspace.yaml names them: postgres.js's write after a closed socket).
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
COPY patches ./patches
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile
# The API runs as one bundled module (apps/api/scripts/start.mjs); `pnpm deploy` copies the API package
# with its production dependencies only (PGlite, loaded from beside the bundle, and the migrations of
# @fleet/db among them); the console the same way, with its `next build` output.
RUN node apps/api/scripts/start.mjs --build-only \
 && pnpm deploy --filter @fleet/api --prod --legacy /out/api \
 && cp -r apps/api/dist /out/api/dist \
 && pnpm --filter @fleet/console build \
 && pnpm deploy --filter @fleet/console --prod --legacy /out/console \
 && cp -r apps/console/.next /out/console/.next \
 && rm -rf /out/console/.next/cache

# --- api: the API server; PostgreSQL through DATABASE_URL ---
FROM ${NODE_IMAGE} AS api
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
# Owned by root, read-only to the server; only .data (the embedded database, when no DATABASE_URL is
# given) is the server's to write.
COPY --from=build /out/api ./
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8080
# Liveness: the process answers. A load balancer checks /readyz (database and scheduler reachable, not
# shutting down), which must not restart a container whose database is briefly away.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (docs/deploy.md, "Shutdown"); give the container FLEET_SHUTDOWN_DELAY_MS +
# FLEET_SHUTDOWN_GRACE_MS + 10 s before it is killed (compose: stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "dist/api.mjs"]

# --- console: the Next.js operator console; API_URL says where the API is ---
FROM ${NODE_IMAGE} AS console
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    CONSOLE_PORT=3000
WORKDIR /app
COPY --from=build /out/console ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.CONSOLE_PORT||3000)+'/sign-in').then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"]
CMD ["sh", "-c", "exec node node_modules/next/dist/bin/next start -H 0.0.0.0 -p \"$CONSOLE_PORT\""]
