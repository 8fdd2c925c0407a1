# syntax=docker/dockerfile:1
# One Bourse node (docs/deployment.md): `docker build -t bourse .`, then run it with the settings of
# docs/deployment.md "Settings", or the whole deployment with deploy/compose.yaml.
ARG NODE_IMAGE=node:20-bookworm-slim

# TypeScript → dist/, and the browser pages → dist/web. No native module is needed to build, so
# install scripts are skipped (the package's own `prepare` would build before the sources are here).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY web web
RUN npm run build

# The runtime dependencies alone, with better-sqlite3's native module built here, where the
# compilers are, so the runtime image carries none of them.
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm rebuild better-sqlite3

FROM ${NODE_IMAGE}
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
# `bourse` on the PATH: `docker exec <node> bourse cluster` talks to the node it runs in.
RUN chmod +x dist/cli/main.js \
  && ln -s /app/dist/cli/main.js /usr/local/bin/bourse \
  && mkdir /data && chown node:node /data
# The program stays root's and read-only to the server, which runs as the image's `node` user.
USER node
ENV HOST=0.0.0.0 PORT=8080 BOURSE_DATA=/data
VOLUME /data
EXPOSE 8080
# /health answers 503 while a follower lags (or a node cannot serve): the container shows unhealthy.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=32", "dist/main.js"]
