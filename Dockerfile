# syntax=docker/dockerfile:1
# giftbot's image: a build stage that compiles TypeScript and better-sqlite3, and a runtime stage
# with only the production dependencies and the compiled bot, run as the unprivileged `node` user.
#
#   docker build -t giftbot .                   # FROM node:20-bookworm-slim (Docker Hub)
#   podman build --format docker --build-arg NODE_IMAGE=localhost/giftbot-base:20-bookworm -t giftbot .
# (podman: --format docker keeps the HEALTHCHECK, which the OCI format drops)
#
# NODE_IMAGE is any Debian-based Node.js 20 image with npm, Node's headers in /usr/local/include
# and a `node` user: the official one, or the stand-in deploy/make-base-image.sh makes where no
# registry can be reached. Nothing else is pulled.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded: it needs a
# compiler, Python for node-gyp, and Node's headers, which the image carries (no download).
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
WORKDIR /app
# Dependencies first: this layer is reused until package*.json change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY tools ./tools
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
# Settings come from the environment and *_FILE secrets only (ENV_FILE=none: no .env is read).
# HOST is every interface inside the container: publish the port on the host's 127.0.0.1
# (compose.yaml does). HEALTH_PORT serves /livez, /readyz, /healthz and /metrics; in webhook mode
# it is the webhook's own PORT (8080 both), so one port serves the webhook and the probes, and
# /metrics only on a METRICS_PORT of its own (the webhook's port faces the internet).
ENV NODE_ENV=production \
    ENV_FILE=none \
    HOST=0.0.0.0 \
    HEALTH_PORT=8080 \
    DATABASE_PATH=/app/data/giftbot.sqlite
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY locales ./locales
# The database lives on a volume; its folder belongs to the user the bot runs as, so a new named
# volume (which copies this folder's owner) is writable without root.
RUN mkdir -p /app/data/backups && chown -R node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
# Liveness: the process answers and its database works (not whether Telegram or the service can
# be reached: restarting would not mend those). A probe in Node, since the image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "dist/src/run/probe.js", "/livez"]
# Node itself is PID 1 (exec form, no shell or npm in between), so SIGTERM reaches the bot's own
# handler and the graceful shutdown runs; give it SHUTDOWN_GRACE_SECONDS (40 s by default) before
# a SIGKILL: `docker stop -t 45`, or compose.yaml's stop_grace_period.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
