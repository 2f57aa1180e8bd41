import { gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Express, RequestHandler } from 'express';
import * as z from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';

/**
 * OpenAPI 3.1 for every service, generated from the same zod schemas that validate its requests and describe its
 * responses (issue 17). A service writes its routes once as a zod-openapi paths object (src/http/openapi.ts), and:
 * - `serviceOpenApiDocument` turns it into the document each service serves at GET /openapi.json;
 * - `responseContractCheck` (integration tests and e2e, `OPENAPI_RESPONSE_CHECK=strict`) checks every JSON answer
 *   against it, so a renamed field fails the service's own tests, not the customer;
 * - the gateway combines the documents, and the front ends' types are generated from them.
 */

export type OpenApiDocument = ReturnType<typeof createDocument>;
export type RoutePaths = ZodOpenApiPathsObject;
export type RouteOperation = ZodOpenApiOperationObject;

/** The one error body every service answers with (errors.ts `ErrorBody`). */
export const ErrorBodySchema = z
  .object({
    message: z.string().meta({ description: 'What went wrong, in words the front ends show as they are.' }),
    code: z
      .string()
      .optional()
      .meta({ description: 'A stable machine-readable code, e.g. validation_failed.' }),
    details: z.unknown().optional(),
  })
  // Some answers the spec gives carry more at the top level (`error`, `callbackRequired`, …: HttpError's `extra`).
  .catchall(z.unknown())
  .meta({ id: 'Error' });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

const STATUS_TEXT: Record<ErrorStatus, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Too large',
  415: 'Unsupported media type',
  422: 'Unprocessable',
  429: 'Too many requests',
  502: 'Upstream unavailable',
  503: 'Temporarily unavailable',
};

/**
 * Error responses with the exact messages a route answers: `errors({ 404: 'Booking not found', 409: [...] })`.
 * The messages are the response's description and its examples, so a reader (and the reference page) sees them.
 */
export function errors(
  messages: Partial<Record<ErrorStatus, string | readonly string[]>>,
): Record<string, ZodOpenApiResponseObject> {
  const out: Record<string, ZodOpenApiResponseObject> = {};
  for (const [key, value] of Object.entries(messages) as [string, string | readonly string[] | undefined][]) {
    if (value === undefined) continue;
    const status = Number(key) as ErrorStatus;
    const list = typeof value === 'string' ? [value] : [...value];
    out[key] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((m) => `"${m}"`).join('; ')}`,
      content: {
        'application/json': {
          schema: ErrorBodySchema,
          examples: Object.fromEntries(list.map((message, i) => [`e${i + 1}`, { value: { message } }])),
        },
      },
    };
  }
  return out;
}

/** Every staff route: the identity the gateway signed is missing, or the role does not allow it. */
export const STAFF_ERRORS = {
  401: 'Not authenticated',
  403: 'You do not have permission to do that',
} as const;

/** Any route that touches the database may answer this while Postgres is down or restarting (database-errors.ts). */
export const UNAVAILABLE = {
  503: 'The service is temporarily unavailable. Please try again in a moment.',
} as const;

/** A JSON success response. */
export function json(description: string, schema: z.ZodType): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema } } };
}

/** A JSON request body. */
export function jsonBody(schema: z.ZodType, description?: string) {
  return {
    required: true,
    ...(description ? { description } : {}),
    content: { 'application/json': { schema } },
  };
}

export interface ServiceDocumentInfo {
  /** The service's name (booking, jobs, …). */
  service: string;
  version?: string;
  description: string;
  paths: RoutePaths;
}

/** Staff routes carry the identity the gateway signed (a short-lived JWT in `x-identity`, see identity.ts). */
const SECURITY_SCHEMES = {
  gatewayIdentity: {
    type: 'apiKey' as const,
    in: 'header' as const,
    name: 'x-identity',
    description:
      'The signed identity the gateway attaches after checking the staff session cookie. Services never see cookies.',
  },
};

export function serviceOpenApiDocument(info: ServiceDocumentInfo): OpenApiDocument {
  return createDocument({
    openapi: '3.1.0',
    info: { title: `${info.service} service`, version: info.version ?? '1', description: info.description },
    paths: info.paths,
    components: { securitySchemes: SECURITY_SCHEMES },
  });
}

/** GET /openapi.json: for other teams and for the gateway, which combines every service's document. */
export function mountOpenApi(app: Express, document: OpenApiDocument): void {
  const body = JSON.stringify(document);
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(body);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Checking answers against the document

interface CompiledRoute {
  method: string;
  template: string;
  pattern: RegExp;
  operation: ZodOpenApiOperationObject;
}

/** The routes of a document, and validators of their answers against the document as it is published. */
export type CompiledRoutes = CompiledRoute[] & {
  /** The published JSON Schema of an answer (the response key as documented: '200', '4XX', 'default'). */
  validator(route: CompiledRoute, responseKey: string, contentType: string): ValidateFunction | undefined;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const pointerToken = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function compile(paths: RoutePaths): CompiledRoutes {
  const routes: CompiledRoute[] = [];
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(
      '^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '/?$',
    );
    for (const method of METHODS) {
      const operation = (item as Record<string, ZodOpenApiOperationObject | undefined>)[method];
      if (operation) routes.push({ method: method.toUpperCase(), template, pattern, operation });
    }
  }
  // Literal segments win over parameters (/bookings/slots before /bookings/{id}).
  routes.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  // The answer is checked against the JSON Schema the document publishes (what other teams and the generated
  // front-end types rely on: e.g. additionalProperties false), not only the zod schema, which drops unknown keys.
  let ajv: Ajv2020 | undefined;
  const cache = new Map<string, ValidateFunction | undefined>();
  const validator = (route: CompiledRoute, responseKey: string, contentType: string) => {
    const ref = `https://contract.check/openapi#/paths/${pointerToken(route.template)}/${route.method.toLowerCase()}/responses/${pointerToken(responseKey)}/content/${pointerToken(contentType)}/schema`;
    if (!cache.has(ref)) {
      if (!ajv) {
        ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
        addFormats(ajv);
        const document = createDocument({ openapi: '3.1.0', info: { title: 'check', version: '1' }, paths });
        ajv.addSchema(
          { ...document, $id: 'https://contract.check/openapi' } as object,
          undefined,
          undefined,
          false,
        );
      }
      let fn: ValidateFunction | undefined;
      try {
        fn = ajv.getSchema(ref);
      } catch {
        fn = undefined;
      }
      cache.set(ref, fn);
    }
    return cache.get(ref);
  };
  return Object.assign(routes, { validator });
}

export interface ContractViolation {
  method: string;
  path: string;
  status: number;
  problem: string;
}

/** Finds the documented operation for a request, or undefined. */
export function findOperation(paths: RoutePaths, method: string, path: string) {
  return compile(paths).find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
}

function responseFor(
  responses: ZodOpenApiResponsesObject | undefined,
  status: number,
): { key: string; response: ZodOpenApiResponseObject } | undefined {
  if (!responses) return undefined;
  const r = responses as Record<string, ZodOpenApiResponseObject | undefined>;
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const response = r[key];
    if (response) return { key, response };
  }
  return undefined;
}

/**
 * The messages a documented error answer may carry: its examples, a `{name}` in one standing for any text
 * ("Job {jobNumber} already has invoice {invoiceNumber}").
 */
function documentedMessages(response: ZodOpenApiResponseObject, contentType: string): RegExp[] | undefined {
  const content = (
    response as { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> }
  ).content;
  const examples = (content?.[contentType] ?? content?.['application/json'])?.examples;
  if (!examples) return undefined;
  const messages = Object.values(examples)
    .map((e) => (e.value as { message?: unknown } | undefined)?.message)
    .filter((m): m is string => typeof m === 'string');
  if (!messages.length) return undefined;
  return messages.map(
    (m) =>
      new RegExp(
        '^' +
          m
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))
            .join('.+') +
          '$',
        's',
      ),
  );
}

/**
 * Checks one answer against the document: the route and status must be documented, and a JSON body must parse
 * with the documented schema (as it travels: dates as strings). Returns undefined when it conforms.
 */
export function checkResponse(
  compiled: CompiledRoutes,
  method: string,
  path: string,
  status: number,
  body: unknown,
  contentType = 'application/json',
): ContractViolation | undefined {
  // HEAD answers like GET without a body.
  const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const route = compiled.find((r) => r.method === wanted && r.pattern.test(path));
  const generic = isGenericError(status, body);
  if (!route) {
    // An unknown address answers the kit's 404; anything else must be documented.
    if (status === 404 || generic) return errorBodyViolation(method, path, status, body);
    return { method, path, status, problem: 'route is not in the OpenAPI document' };
  }
  const documented = responseFor(route.operation.responses, status);
  if (!documented) {
    if (generic) return errorBodyViolation(method, path, status, body);
    return { method, path, status, problem: `status ${status} is not documented for ${route.template}` };
  }
  const { key, response } = documented;
  if (body === NO_BODY) return undefined;
  const media = (response as { content?: Record<string, { schema?: unknown }> }).content;
  if (!media) return undefined;
  const schema = (media[contentType] ?? media['application/json'])?.schema as z.ZodType | undefined;
  if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== 'function') return undefined;
  const wire = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
  const result = schema.safeParse(wire);
  if (result.success) {
    const mediaType = media[contentType] ? contentType : 'application/json';
    const validate = compiled.validator(route, key, mediaType);
    if (validate && !validate(wire)) {
      const issues = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => {
          const extra = (e.params as { additionalProperty?: string }).additionalProperty;
          return `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}${extra ? ` (${extra})` : ''}`;
        })
        .join('; ');
      return { method, path, status, problem: `body does not match ${route.template}: ${issues}` };
    }
    // An error answer says one of the documented messages (validation answers name the field's own rule).
    const code = (wire as { code?: unknown } | null)?.code;
    if (status >= 400 && code !== 'validation_failed' && !generic) {
      const messages = documentedMessages(response, mediaType);
      const message = (wire as { message?: unknown } | null)?.message;
      if (messages && typeof message === 'string' && !messages.some((m) => m.test(message)))
        return {
          method,
          path,
          status,
          problem: `message ${JSON.stringify(message)} is not one documented for ${status} on ${route.template}`,
        };
    }
    return undefined;
  }
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
  return { method, path, status, problem: `body does not match ${route.template}: ${issues}` };
}

/**
 * Answers any route can give that come from the kit rather than the route: a body the parser refused (malformed
 * JSON or address, too large, unsupported encoding), a database outage (503), a crash (500). Documented once,
 * in the service's description, not on every operation; their body is still checked.
 */
const GENERIC_STATUSES = new Set([413, 415, 500, 502, 503]);
const GENERIC_400_CODES = new Set(['malformed_json', 'malformed_body', 'malformed_url', 'invalid_characters']);

function isGenericError(status: number, body: unknown): boolean {
  if (GENERIC_STATUSES.has(status)) return true;
  const code = (body as { code?: unknown } | null)?.code;
  return status === 400 && typeof code === 'string' && GENERIC_400_CODES.has(code);
}

function errorBodyViolation(method: string, path: string, status: number, body: unknown) {
  if (body === NO_BODY) return undefined;
  if (ErrorBodySchema.safeParse(body).success) return undefined;
  return { method, path, status, problem: 'error body is not { message, code?, details? }' };
}

/** Routes every service has that are not part of its API. */
const OPERATIONAL = /^\/(healthz|readyz|metrics|openapi\.json)$/;

/**
 * Express middleware (mounted before the routes) that checks every JSON answer against the document. With
 * `OPENAPI_RESPONSE_CHECK=strict` (integration and end-to-end tests) a non-conforming answer becomes a 500 naming
 * the problem, so the test that made it fails; otherwise (`warn`) it is logged. Off in production by default: the
 * check costs a parse per response.
 */
export function responseContractCheck(
  paths: RoutePaths,
  mode: 'strict' | 'warn' | 'off' = (process.env.OPENAPI_RESPONSE_CHECK as 'strict' | 'warn' | undefined) ??
    'off',
  onViolation: (v: ContractViolation) => void = (v) =>
    // Named on stderr too: the test that met it often asserts only the status it expected.
    process.stderr.write(`openapi contract: ${v.method} ${v.path} ${v.status}: ${v.problem}\n`),
): RequestHandler {
  if (mode === 'off') return (_req, _res, next) => next();
  const compiled = compile(paths);
  return (req, res, next) => {
    const path = req.originalUrl.split('?')[0] ?? '/';
    if (OPERATIONAL.test(path)) return next();
    // res.json ends in res.send, and so do the answers sent as ready-made JSON text (jobs' lists Postgres builds,
    // gzipped when large): checking at send sees both, once.
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const json = jsonAnswer(res.getHeader('content-type'), res.getHeader('content-encoding'), body);
      // Not JSON (a PDF, an image, an empty 204): the route and status must still be documented.
      const violation = checkResponse(
        compiled,
        req.method,
        path,
        res.statusCode,
        json === NOT_JSON ? NO_BODY : json,
      );
      if (!violation) return send(body);
      onViolation(violation);
      if (mode === 'warn') return send(body);
      res.status(500).removeHeader('content-encoding');
      res.setHeader('content-type', 'application/json; charset=utf-8');
      return send(
        JSON.stringify({
          message: `Response does not match the OpenAPI document: ${violation.problem}`,
          code: 'openapi_contract_violation',
          details: { ...violation, body: json },
        }),
      );
    };
    next();
  };
}

const NOT_JSON = Symbol('not json');
/** checkResponse's body for an answer that is not JSON: only its route and status are checked. */
export const NO_BODY = Symbol('no body');

/** The parsed body of a JSON answer being sent (plain or gzip text), or NOT_JSON. */
function jsonAnswer(contentType: unknown, encoding: unknown, body: unknown): unknown {
  if (typeof contentType !== 'string' || !/\bjson\b/.test(contentType)) return NOT_JSON;
  let bytes: Buffer | string;
  if (typeof body === 'string') bytes = body;
  else if (Buffer.isBuffer(body)) bytes = body;
  else return NOT_JSON;
  if (encoding === 'gzip') bytes = gunzipSync(bytes);
  else if (encoding !== undefined && encoding !== 'identity') return NOT_JSON;
  try {
    return JSON.parse(bytes.toString());
  } catch {
    return NOT_JSON;
  }
}

/**
 * Every (METHOD, OpenAPI path) an express app or router answers, walking nested routers (express 5): what a
 * service's coverage test compares with its document, so a route added without its description fails.
 */
export function expressRoutes(appOrRouter: Express | { stack: unknown[] }): string[] {
  type Layer = {
    name?: string;
    rawPath?: string;
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  };
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        // A router's '/' under its mount is the mount itself: /api/bookings, not /api/bookings/.
        const template = (prefix + layer.route.path).replace(/[:*](\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
        for (const method of Object.keys(layer.route.methods))
          out.push(`${method.toUpperCase()} ${template}`);
      } else if (layer.name === 'router' && layer.handle?.stack) {
        // A router used without a path (app.use(router)) has rawPath '/': it adds nothing.
        walk(
          layer.handle.stack,
          prefix + (typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''),
        );
      }
    }
  };
  const stack =
    'stack' in appOrRouter
      ? appOrRouter.stack
      : (appOrRouter as unknown as { router: { stack: unknown[] } }).router.stack;
  walk(stack as Layer[], '');
  return out.filter((r) => !/ \/openapi\.json$/.test(r)).sort();
}

/** Every (METHOD, path) a document describes, in expressRoutes' form. */
export function documentedRoutes(document: { paths?: Record<string, object | undefined> }): string[] {
  return Object.entries(document.paths ?? {})
    .flatMap(([path, item]) =>
      Object.keys(item ?? {})
        .filter((k) => (METHODS as readonly string[]).includes(k))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

export { compile as compileRoutes };
