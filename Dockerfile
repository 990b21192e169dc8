# Production image for the API, the worker and the inbound SMTP listener (one image, three commands;
# docs/operators.md "Production"). Two stages: `build` compiles with the dev dependencies
# (TypeScript, the workflow bundler) and prunes them; the final stage holds the compiled dist/ and
# the production node_modules only: no tsx, no TypeScript, no sources.
#   docker build -t fss .
#   docker run -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... fss                        # API
#   docker run -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... fss node dist/bin/worker.js  # worker
#   docker run -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... fss node dist/bin/inbound.js # listener
#
# Node 24, the Active LTS line (supported until 2028-04-30); the same version CI runs the suite on
# (NODE_LTS_VERSION in scripts/tool-paths.js; test/foundation/deploy-files.test.ts compares them).
ARG NODE_VERSION=24.22.3

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# All dependencies, dev ones included: the build needs them. `npm ci` refuses a lock that lacks
# other platforms' optional packages; in that case install from the lock anyway, without rewriting it.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-save --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json knexfile.ts ./
COPY scripts/build.js ./scripts/
COPY api ./api
COPY activities ./activities
COPY bin ./bin
COPY core ./core
COPY db ./db
COPY domain ./domain
COPY inbound ./inbound
COPY services ./services
COPY temporal ./temporal
COPY workflows ./workflows
# dist/: the compiled JavaScript and the prebuilt workflow bundle (scripts/build.js); then the dev
# dependencies go (tsx, typescript…). --omit=optional too: typescript is also an optional peer of a
# production package (vue, under @scalar/api-reference), which --omit=dev alone keeps; it also drops
# the platform binaries of the development-only embedded PostgreSQL and of swc (the workflow
# bundler's compiler: the image starts from the prebuilt bundle, so WORKFLOW_BUNDLE_PATH=none is
# not available in it).
RUN npm run build \
 && npm prune --omit=dev --omit=optional --no-audit --no-fund \
 && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The only folder the app writes to; everything else stays owned by root, read-only to the app.
RUN mkdir -p /app/.data && chown node:node /app/.data
# The image's unprivileged `node` user (uid 1000).
USER node
ENV PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/.data
EXPOSE 3000
CMD ["node", "dist/bin/api.js"]
