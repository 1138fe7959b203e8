# One image for api, worker and ops; docker-compose picks the entrypoint. Node 24 (the current LTS);
# package.json's engines say which other versions run it.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The lock and the workspaces' manifests first, so the install layer is cached until they change.
COPY package.json package-lock.json ./
COPY libs/sdk/package.json libs/sdk/
COPY apps/agora/package.json apps/agora/
COPY apps/mcp/package.json apps/mcp/
COPY apps/console/package.json apps/console/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
# Production: missing secrets and the public development values stop every process (npm run init:env).
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# npm run init:env for hosts without Node: docs/deploy.md
COPY scripts/init-env.js ./scripts/
USER node
CMD ["node", "dist/apps/api/main.js"]
