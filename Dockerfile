# Production image for the API and the worker (same image, different command).
#   docker build -t fss .
#   docker run -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... fss                      # API
#   docker run -e DATABASE_URL=... -e TEMPORAL_ADDRESS=... fss node --import tsx bin/worker.ts
FROM node:20-slim

WORKDIR /app
ENV NODE_ENV=production

# Dependencies first, so that this layer is cached until the lock changes.
# `npm ci` refuses a lock that lacks other platforms' optional packages; in that
# case install from the lock anyway, without rewriting it.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund \
 || npm install --omit=dev --no-save --no-audit --no-fund \
 && npm cache clean --force

# Only the application sources (never a host node_modules/ or .data/).
COPY tsconfig.json knexfile.ts ./
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
COPY scripts/tool-paths.js scripts/tool-paths.d.ts ./scripts/

RUN mkdir -p /app/.data && chown node:node /app/.data
USER node

ENV PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/.data
EXPOSE 3000
CMD ["node", "--import", "tsx", "bin/api.ts"]
