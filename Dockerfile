# The service's image: one image, two apps. `api` (account, instance and internal ingest hosts) and
# `notifier` are chosen by the command; with none, both run, as `npm start` runs them.
#   podman build -t gateway-hub .          (or docker build)
#   docker run -d --env-file gateway.env -v gateway-data:/data -p 8080:8080 -p 8081:8081 gateway-hub api
# BASE must be a Debian-based (glibc) image with Node 24 at /usr/local, laid out as the official
# image: sodium-native ships no musl binaries, so Alpine does not work. README "Container".
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /src
# better-sqlite3 compiles from source when no prebuilt binary for this Node can be downloaded; that
# needs python3, make and g++ (the slim image has none of them, a local base may have all).
RUN if ! command -v python3 >/dev/null || ! command -v make >/dev/null || ! command -v g++ >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*; \
    fi
# node-gyp builds against this Node's own headers (in the image) instead of downloading them.
ENV npm_config_nodedir=/usr/local NX_DAEMON=false NX_NO_CLOUD=true
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
# better-sqlite3 12 compiled against the headers of Node 24.19 or newer aborts the process when the
# garbage collector frees a statement (README "Node versions"): fail here rather than in service.
RUN node --expose-gc -e "const D = require('better-sqlite3'); const db = new D(':memory:'); \
      for (let i = 0; i < 20000; i++) db.prepare('select ' + i).get(); global.gc(); db.close()"
COPY . .
# Build, then gather in /out/app only what production loads: the apps' and the operator CLI's
# bundles (tools/apps.js) with their source maps, the dashboard, the production dependencies (the
# bundles load the native and optional ones from node_modules), the package catalogue and the start
# scripts.
RUN npm run build --silent \
 && npm prune --omit=dev --no-audit --no-fund \
 && mkdir -p /out/app/tools/container /out/app/dist/apps/api /out/app/dist/apps/notifier /out/app/dist/tools/ops \
 && cp -a package.json node_modules config /out/app/ \
 && cp -a dist/apps/api/main.js dist/apps/api/main.js.map /out/app/dist/apps/api/ \
 && cp -a dist/apps/notifier/main.js dist/apps/notifier/main.js.map /out/app/dist/apps/notifier/ \
 && cp -a dist/tools/ops/main.js dist/tools/ops/main.js.map /out/app/dist/tools/ops/ \
 && cp -a dist/apps/dashboard /out/app/dist/apps/ \
 && cp -a tools/start.js tools/apps.js /out/app/tools/ \
 && cp -a tools/container/healthcheck.js /out/app/tools/container/

FROM ${BASE} AS runtime
# A fixed numeric user, so that orchestrators can check it is not root (runAsNonRoot) and volumes can
# be prepared for it. DATA_DIR must be private to that user (0700): the service checks it.
RUN groupadd --system --gid 10001 gateway \
 && useradd --system --uid 10001 --gid gateway --home-dir /data --no-create-home --shell /usr/sbin/nologin gateway \
 && mkdir -p /data && chown gateway:gateway /data && chmod 0700 /data
# Owned by root and read-only to the service's user.
COPY --from=build /out/app /app
WORKDIR /app
# Production refuses to start without INTERNAL_TOKEN and SECRETS_KEY: pass them from an env file.
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0
USER 10001:10001
VOLUME ["/data"]
# account host, instance host; the internal ingest host (8082) and the notifier's /healthz and
# /metrics (8083) bind INTERNAL_HOST, 127.0.0.1 unless set (compose.yaml opens them to its network).
EXPOSE 8080 8081 8082 8083
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "tools/container/healthcheck.js"]
ENTRYPOINT ["node", "tools/start.js"]
CMD ["api", "notifier"]
