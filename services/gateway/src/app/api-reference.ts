/**
 * The combined API reference (issue 17): fetches each service's /openapi.json from its configured upstream, merges
 * them with the gateway's own document (domain/api-reference.ts), and keeps the result briefly, so the reference
 * page does not fan out to five services on every load. A service that is down or answers nonsense is left out and
 * named in `x-unavailable-services`: the reference still answers, never a 500.
 */
import type { Logger } from '@tyres/service-kit';
import {
  combineDocuments,
  type CombinedDocument,
  type OpenApiLike,
  type RouteOwner,
  type ServiceDocument,
} from '../domain/api-reference';

export interface ApiReferenceDeps {
  /** service name → base URL (BOOKING_URL, JOBS_URL, …). */
  upstreams: Record<string, string>;
  /** The gateway's own routes. */
  gatewayDocument: () => OpenApiLike;
  routeOwner: RouteOwner;
  accessOf?: (path: string) => string | undefined;
  edgeResponsesOf?: (method: string, path: string) => Record<string, unknown> | undefined;
  logger: Logger;
  /** How long one service may take to answer (default 3 s). */
  timeoutMs?: number;
  /** How long a complete document is kept (default 30 s); an incomplete one is kept 5 s, to pick a service up soon. */
  ttlMs?: number;
  clock?: () => number;
  fetch?: typeof fetch;
}

const INCOMPLETE_TTL_MS = 5_000;

export class ApiReference {
  private cached: { at: number; ttl: number; document: CombinedDocument } | undefined;
  private pending: Promise<CombinedDocument> | undefined;
  private readonly gateway: OpenApiLike;

  constructor(private readonly deps: ApiReferenceDeps) {
    this.gateway = deps.gatewayDocument();
  }

  /** The combined document: the cached one while fresh; concurrent callers share one refresh. */
  async document(): Promise<CombinedDocument> {
    const now = (this.deps.clock ?? Date.now)();
    if (this.cached && now - this.cached.at < this.cached.ttl) return this.cached.document;
    this.pending ??= this.build().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async build(): Promise<CombinedDocument> {
    const entries = Object.entries(this.deps.upstreams);
    const results = await Promise.all(entries.map(([service, url]) => this.fetchOne(service, url)));
    const services: ServiceDocument[] = [];
    const unavailable: { service: string; reason: string }[] = [];
    for (const result of results) {
      if ('document' in result) services.push(result);
      else unavailable.push(result);
    }
    if (unavailable.length)
      this.deps.logger.warn({ unavailable }, 'API reference: some service documents could not be fetched');
    const document = combineDocuments({
      gateway: this.gateway,
      services,
      unavailable,
      routeOwner: this.deps.routeOwner,
      ...(this.deps.accessOf ? { accessOf: this.deps.accessOf } : {}),
      ...(this.deps.edgeResponsesOf ? { edgeResponsesOf: this.deps.edgeResponsesOf } : {}),
    });
    this.cached = {
      at: (this.deps.clock ?? Date.now)(),
      ttl: unavailable.length
        ? Math.min(INCOMPLETE_TTL_MS, this.deps.ttlMs ?? 30_000)
        : (this.deps.ttlMs ?? 30_000),
      document,
    };
    return document;
  }

  private async fetchOne(
    service: string,
    baseUrl: string,
  ): Promise<ServiceDocument | { service: string; reason: string }> {
    const doFetch = this.deps.fetch ?? fetch;
    try {
      const res = await doFetch(new URL('/openapi.json', baseUrl), {
        signal: AbortSignal.timeout(this.deps.timeoutMs ?? 3_000),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return { service, reason: `answered ${res.status}` };
      }
      const document = (await res.json()) as OpenApiLike;
      if (
        typeof document?.openapi !== 'string' ||
        typeof document.paths !== 'object' ||
        document.paths === null
      )
        return { service, reason: 'not an OpenAPI document' };
      return { service, document };
    } catch (err) {
      // By name: the error may come from another realm (fetch's), where instanceof fails.
      const name = (err as { name?: unknown } | null)?.name;
      const reason =
        name === 'TimeoutError' || name === 'AbortError'
          ? 'timed out'
          : name === 'SyntaxError'
            ? 'not JSON'
            : 'unreachable';
      return { service, reason };
    }
  }
}
