# Holdfast production image. Build: `docker build -t holdfast .`; run it with docker-compose.yml, or with
# DATABASE_URL, APP_SECRET and APP_URL set (see .env.example). Migrations are applied at every start.

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1

# Dependencies first, so source edits do not invalidate this layer. --ignore-scripts: npm 10 in this
# image does not know package.json "allowScripts", and nothing here needs an install script; the one
# step that matters (generating the Prisma client) is run explicitly below.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

COPY . .
# `prisma generate` writes lib/server/db/generated. The Prisma CLI also fetches its schema engine on its
# first run; doing that here (not at container start) lets the container migrate without internet access.
RUN npx prisma generate && npx prisma --version
# No database exists at build time; the real environment is validated when the container starts.
RUN SKIP_ENV_VALIDATION=1 npx next build

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000
# The full node_modules, dev dependencies included: `prisma migrate deploy` runs at start and the Prisma
# CLI is a dev dependency.
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# scripts/start.mjs runs one Next.js worker per core (HOLDFAST_WORKERS; with Redis) and passes SIGTERM on.
# `exec` makes it PID 1's direct child (or PID 1 itself without an init), so `docker stop`'s SIGTERM
# reaches it; going through npx would put a shell in between that does not pass the signal on.
CMD ["sh", "-c", "npx prisma migrate deploy && exec node scripts/start.mjs -H 0.0.0.0 -p \"$PORT\""]
