# syntax=docker/dockerfile:1.20
# Every image of the platform: one per service and one per front end, each chosen by a build argument.
# Build from the repository root (npm workspaces share one lockfile), or let `docker compose build` pass the
# arguments of each image:
#
#   docker build --target service  --build-arg SERVICE=booking --build-arg PORT=3001 -t tyres/booking .
#   docker build --target frontend --build-arg FRONTEND=shell -t tyres/frontend-shell .
#
# Stages (the first three are the same for every image, so BuildKit builds them once for all nine):
#   manifests       the lockfile and every workspace's package.json
#   deps            npm ci of the whole repo (dev tools included)
#   frontend-build  webpack build of frontends/$FRONTEND
#   frontend        nginx-unprivileged serving that build
#   build           Prisma clients and tsc -b of $SERVICE and the workspaces it depends on
#   prod-deps       production-only node_modules of those workspaces
#   service         Node 20 slim, non-root: production node_modules + compiled dist, nothing else
#
# What a service image holds is read from the package.json files at build time (image-contents.mjs below):
# the service, every workspace in its "dependencies" (transitively), and their dist/. A new dependency on a
# workspace package needs no change here.

ARG NODE_IMAGE=node:20-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:stable-alpine
# The service whose image also runs the migrations (compose service `migrate`, k8s Job `migrate`), so the
# migrations that run are always the ones built and tested with the code being deployed.
ARG MIGRATOR=gateway

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

# ---------------------------------------------------------------------------------------------------
FROM base AS manifests
# npm ci refuses a lockfile whose workspaces are missing. The globs are package.json's "workspaces", so a
# new workspace needs no line here.
COPY --parents package.json package-lock.json packages/*/package.json services/*/package.json frontends/*/package.json ./
COPY <<'EOF' /opt/image-contents.mjs
// What the image of $SERVICE is made of, read from the package.json files.
//   node image-contents.mjs workspaces  the service and every workspace it depends on, transitively (plus
//                                       packages/prisma-tools in the $MIGRATOR image): what tsc -b compiles
//                                       and npm ci --omit=dev installs
//   node image-contents.mjs paths       what the runtime stage takes from the build stage: those workspaces'
//                                       dist/, and in the $MIGRATOR image the migration command (scripts/,
//                                       prisma-tools' bin/, every services/*/prisma/)
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const { SERVICE = '', MIGRATOR = '' } = process.env;
const fail = (message) => {
  console.error(message);
  process.exit(1);
};
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
if (!/^[a-z0-9-]+$/.test(SERVICE) || !existsSync(`services/${SERVICE}/package.json`))
  fail(`SERVICE="${SERVICE}": build with --target service --build-arg SERVICE=<a folder of services/>`);

// Workspace folder by package name, from the root package.json's "workspaces" (folders or <folder>/*).
const folders = new Map();
for (const pattern of readJson('package.json').workspaces) {
  const dirs = pattern.endsWith('/*')
    ? readdirSync(pattern.slice(0, -2)).map((name) => `${pattern.slice(0, -2)}/${name}`)
    : [pattern];
  for (const dir of dirs)
    if (existsSync(`${dir}/package.json`)) folders.set(readJson(`${dir}/package.json`).name, dir);
}

const workspaces = new Set();
const visit = (dir) => {
  if (workspaces.has(dir)) return;
  workspaces.add(dir);
  for (const dep of Object.keys(readJson(`${dir}/package.json`).dependencies ?? {}))
    if (folders.has(dep)) visit(folders.get(dep));
};
visit(`services/${SERVICE}`);
const migrator = SERVICE === MIGRATOR;
if (migrator) visit('packages/prisma-tools');

const paths = [...workspaces].map((dir) => `${dir}/dist`);
if (migrator) {
  const schemas = readdirSync('services').map((name) => `services/${name}/prisma`);
  paths.push('scripts', 'packages/prisma-tools/bin', ...schemas.filter((dir) => existsSync(dir)));
}

const mode = process.argv[2];
if (mode === 'workspaces') console.log([...workspaces].join('\n'));
else if (mode === 'paths') console.log(paths.join('\n'));
else fail('usage: node image-contents.mjs workspaces|paths');
EOF

# ---------------------------------------------------------------------------------------------------
FROM manifests AS deps
# --ignore-scripts mirrors the repo policy (dependency install scripts are blocked by "allowScripts",
# which the npm bundled with Node 20 does not read): Prisma's engine download never runs, and native
# packages (@node-rs/argon2, @swc/core) come as prebuilt optionalDependencies for this platform.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts

# ---------------------------------------------------------------------------------------------------
FROM deps AS frontend-build
COPY tsconfig.base.json ./
COPY frontends frontends
# Workspace code the front ends compile from source (the webpack aliases of frontends/platform/webpack):
# the business kernel and the shared reference data (landing suburbs).
COPY packages/kernel/src packages/kernel/src
COPY packages/reference-data/src packages/reference-data/src
# NODE_ENV only after npm ci (with NODE_ENV=production npm ci would skip webpack and the loaders).
ENV NODE_ENV=production
ARG FRONTEND
# The shell's build prerenders the public pages: index.html (the landing page), <path>/index.html, app.html
# (the SPA shell), sitemap.xml and robots.txt, and the same files with stand-in tokens in .site-template/, which
# the image renders at start with the deployment's site URL and business details (frontends/README.md,
# "Prerendered pages"). Nothing deployment-specific is baked in: one image runs everywhere.
RUN test -n "$FRONTEND" -a -f "frontends/$FRONTEND/package.json" \
      || { echo "FRONTEND=\"$FRONTEND\": build with --target frontend --build-arg FRONTEND=<a folder of frontends/>" >&2; exit 1; } \
 && npm run build --workspace "frontends/$FRONTEND" \
 && cd "frontends/$FRONTEND/dist" \
 && if [ "$FRONTEND" = shell ]; then test -f index.html -a -f app.html -a -f sitemap.xml \
      -a -f .site-template/index.html -a -f .site-template/defaults.env; \
    else test -f remoteEntry.js -o -f mf-manifest.json; fi

# ---------------------------------------------------------------------------------------------------
FROM ${NGINX_IMAGE} AS frontend
ARG FRONTEND
# Shared http-level settings (pid and temp files in /tmp for a read-only root filesystem, cache policy,
# security headers, gzip) and this front end's server block. Nothing depends on the environment at build time:
# the remotes are located at run time (same origin, behind the gateway), and the shell's pages get the
# deployment's site URL and business details at start, so one image runs everywhere.
COPY frontends/nginx.conf /etc/nginx/nginx.conf
COPY frontends/${FRONTEND}/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=frontend-build /app/frontends/${FRONTEND}/dist /srv/www
# The shell's start step: the base image's entrypoint runs /docker-entrypoint.d/*.sh before nginx and does not
# start it when one fails. It renders /srv/www/.site-template with SITE_URL, BUSINESS_NAME, BUSINESS_PHONE,
# BUSINESS_ABN and BUSINESS_EMAIL into /tmp/shell/www (production refuses to start without them); in a remote's
# image, which has no .site-template, it does nothing.
COPY --chmod=0755 frontends/shell/docker-entrypoint.d/40-render-site.sh /docker-entrypoint.d/40-render-site.sh
USER 101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]

# ---------------------------------------------------------------------------------------------------
FROM deps AS build
COPY tsconfig.base.json tsconfig.json ./
COPY scripts scripts
COPY packages packages
COPY services services
RUN node scripts/prisma-generate.mjs
ARG SERVICE
ARG MIGRATOR
# tsc -b every workspace of the image (not only the service: a dependency missing from its tsconfig
# references is still compiled), then gather what the runtime takes into /out.
RUN workspaces="$(node /opt/image-contents.mjs workspaces)" \
 && paths="$(node /opt/image-contents.mjs paths)" \
 && npx tsc -b $workspaces \
 && mkdir /out && cp -R --parents $paths /out/

# ---------------------------------------------------------------------------------------------------
FROM manifests AS prod-deps
ARG SERVICE
ARG MIGRATOR
# Only the production dependencies of the image's workspaces (no front ends, no testkit, no dev tools).
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    workspaces="$(node /opt/image-contents.mjs workspaces)" \
 && npm ci --ignore-scripts --omit=dev --include-workspace-root=false \
      $(printf -- '--workspace=%s ' $workspaces)

# ---------------------------------------------------------------------------------------------------
FROM base AS service
ARG SERVICE
ARG PORT
ENV NODE_ENV=production \
    PORT=${PORT}
# The runtime never installs anything: drop the package managers (smaller attack surface).
RUN test -n "$PORT" || { echo "build with --build-arg PORT=<the service's port>" >&2; exit 1; } \
 && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
# Production node_modules (node_modules/@tyres/* are symlinks to the workspace folders), then the compiled
# dist/ of the service and its workspaces (and the migration command in the $MIGRATOR image).
COPY --from=prod-deps /app ./
COPY --from=build /out/ ./
# Files stay root-owned and read-only to the process; uid 1000 is the image's `node` user (numeric so
# Kubernetes can verify runAsNonRoot). The process starts in its own folder, like `npm start` there.
USER 1000:1000
WORKDIR /app/services/${SERVICE}
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
