/**
 * The combined API reference (issue 17): every service's OpenAPI document, cut down to the paths the gateway
 * actually routes to that service, merged with the gateway's own. Pure: the fetching and caching are
 * app/api-reference.ts.
 *
 * Clients reach the services through the gateway, so the combined document describes that view: a staff route is
 * authenticated by the session cookie (`staffSession`), not by the `x-identity` header the gateway signs for the
 * services behind it.
 */

/** The parts of an OpenAPI 3.1 document the merge reads; everything else is carried over untouched. */
export interface OpenApiLike {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  tags?: { name: string; description?: string }[];
  [extension: string]: unknown;
}

export interface ServiceDocument {
  service: string;
  document: OpenApiLike;
}

/** Which service the gateway sends a concrete path to (routing.ts matchRoute), or undefined. */
export type RouteOwner = (path: string) => string | undefined;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const REF_PREFIX = '#/components/';

/** A concrete path for a template, to ask the routing table: each {param} becomes one plain segment. */
export const samplePath = (template: string) => template.replace(/\{[^}]+\}/g, 'x');

/** Deep equality of two JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A copy of `value` with every `$ref` to a renamed component pointing at its new name. */
function rewriteRefs(value: unknown, renamed: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renamed));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof v === 'string' && renamed.has(v) ? renamed.get(v) : rewriteRefs(v, renamed);
  }
  return out;
}

/** The security requirements of an operation as the gateway's clients meet them. */
function clientSecurity(security: unknown): unknown {
  if (!Array.isArray(security)) return security;
  return security.map((requirement: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(requirement).map(([scheme, scopes]) => [
        scheme === 'gatewayIdentity' ? 'staffSession' : scheme,
        scopes,
      ]),
    ),
  );
}

export interface CombineInput {
  gateway: OpenApiLike;
  services: ServiceDocument[];
  /** Services whose document could not be fetched (down, timed out, not JSON). */
  unavailable: { service: string; reason: string }[];
  routeOwner: RouteOwner;
  /** Where each operation's access rule comes from (public / staff / admin), for the `x-access` extension. */
  accessOf?: (path: string) => string | undefined;
  /**
   * Answers the gateway itself gives on an operation before the service sees it (the public limits' 429), added
   * to that operation's responses: the service's document cannot know them.
   */
  edgeResponsesOf?: (method: string, path: string) => Record<string, unknown> | undefined;
}

export interface CombinedDocument extends OpenApiLike {
  'x-services': string[];
  'x-unavailable-services': { service: string; reason: string }[];
}

/**
 * Merges the documents. Paths: the gateway's own, then each service's that the gateway routes to it (a path the
 * gateway sends elsewhere, or never routes, such as /internal/*, is left out). Components: one copy of a component
 * every service defines alike (the shared Error body); a name two services use for different things is renamed
 * `<service>.<name>` in the later service's paths and components.
 */
export function combineDocuments(input: CombineInput): CombinedDocument {
  const paths: Record<string, Record<string, unknown>> = { ...(input.gateway.paths ?? {}) };
  const components: Record<string, Record<string, unknown>> = {};
  for (const [section, entries] of Object.entries(input.gateway.components ?? {}))
    components[section] = { ...(entries ?? {}) };
  const tags = new Map<string, { name: string; description?: string }>();
  for (const tag of input.gateway.tags ?? []) tags.set(tag.name, tag);

  for (const { service, document } of input.services) {
    // 1. Components: keep, share or rename.
    const renamed = new Map<string, string>();
    const additions: [string, string, unknown][] = [];
    for (const [section, entries] of Object.entries(document.components ?? {})) {
      // The services' own header scheme is replaced by the cookie for the gateway's clients.
      if (section === 'securitySchemes') continue;
      for (const [name, value] of Object.entries(entries ?? {})) {
        const existing = components[section]?.[name];
        if (existing === undefined || sameJson(existing, value)) {
          additions.push([section, name, value]);
          continue;
        }
        const fresh = `${service}.${name}`;
        renamed.set(`${REF_PREFIX}${section}/${name}`, `${REF_PREFIX}${section}/${fresh}`);
        additions.push([section, fresh, value]);
      }
    }
    for (const [section, name, value] of additions)
      (components[section] ??= {})[name] = rewriteRefs(value, renamed);

    // 2. Paths the gateway routes to this service.
    for (const [template, item] of Object.entries(document.paths ?? {})) {
      if (input.routeOwner(samplePath(template)) !== service) continue;
      if (paths[template]) continue; // the gateway's own route wins (it answers before any service)
      const access = input.accessOf?.(samplePath(template));
      const outItem: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(rewriteRefs(item, renamed) as Record<string, unknown>)) {
        if (!METHODS.has(key) || typeof value !== 'object' || value === null) {
          outItem[key] = value;
          continue;
        }
        const operation = { ...(value as Record<string, unknown>) };
        if (!Array.isArray(operation.tags) || operation.tags.length === 0) operation.tags = [service];
        for (const tag of operation.tags as string[]) if (!tags.has(tag)) tags.set(tag, { name: tag });
        if (operation.security) operation.security = clientSecurity(operation.security);
        const edge = input.edgeResponsesOf?.(key.toUpperCase(), samplePath(template));
        if (edge) operation.responses = withEdgeResponses(operation.responses, edge);
        operation['x-service'] = service;
        if (access) operation['x-access'] = access;
        outItem[key] = operation;
      }
      paths[template] = outItem;
    }
    for (const tag of document.tags ?? []) if (!tags.has(tag.name)) tags.set(tag.name, tag);
  }

  const missing = input.unavailable.map((u) => u.service);
  const description = [
    input.gateway.info.description ?? '',
    missing.length
      ? `\n\n**Incomplete:** the document of ${missing.join(', ')} could not be fetched just now; their routes are missing (see x-unavailable-services).`
      : '',
  ].join('');
  return {
    ...input.gateway,
    info: { ...input.gateway.info, description },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    components,
    tags: [...tags.values()],
    'x-services': input.services.map((s) => s.service),
    'x-unavailable-services': input.unavailable,
  };
}

type ResponseLike = {
  description?: string;
  content?: Record<string, { examples?: Record<string, unknown> } & Record<string, unknown>>;
} & Record<string, unknown>;

/**
 * An operation's responses with the gateway's own added: a status the service documents too (booking's 429 for
 * its hold cap) keeps the service's answer and gains the gateway's description and examples.
 */
export function withEdgeResponses(
  responses: unknown,
  edge: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((responses as Record<string, unknown> | undefined) ?? {}) };
  for (const [status, added] of Object.entries(edge)) {
    const existing = out[status] as ResponseLike | undefined;
    if (!existing || typeof existing !== 'object' || !existing.content) {
      out[status] = added;
      continue;
    }
    const extra = added as ResponseLike;
    const content = { ...existing.content };
    for (const [type, media] of Object.entries(extra.content ?? {})) {
      const mine = content[type];
      content[type] = mine
        ? { ...mine, examples: { ...(mine.examples ?? {}), ...(media.examples ?? {}) } }
        : media;
    }
    out[status] = {
      ...existing,
      description: [existing.description, extra.description].filter(Boolean).join('; or '),
      content,
    };
  }
  return out;
}
