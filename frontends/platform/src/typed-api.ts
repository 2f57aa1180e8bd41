/**
 * Typed calls over the one HTTP client (api.ts), keyed by the `paths` that openapi-typescript generates from a
 * service's OpenAPI document (`npm run api:types`, src/api-types/<service>.ts). The path template, its path and
 * query parameters, the JSON request body and the success answer all come from the document, so a field the server
 * renames breaks the front end's build instead of a customer's booking.
 *
 * Every call goes through api.ts and behaves exactly as the untyped helpers do: credentials included, no retries,
 * a non-OK answer throws ApiError (`${status}: ${text}`, `serverMessage` = the server's `message`), Idempotency-Key
 * and query strings as RequestOptions says. (openapi-fetch was not used: it sends a `Request` object and answers
 * `{ data, error }` instead of throwing, so every caller and test stub would have needed a second code path.)
 *
 *   const booking = typedApi<BookingPaths>();
 *   const slots = await booking.get('/api/time-slots', { query: { date } });   // PublicSlot[]
 *   await booking.post('/api/bookings', { body, idempotencyKey });           // BookingConfirmation
 */
import {
  ApiError,
  apiJson,
  apiPage,
  apiUpload,
  type Page,
  type QueryParams,
  type RequestOptions,
} from './api';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Paths of `P` that have a `method` operation. */
export type PathsWith<P, M extends Method> = {
  [K in keyof P]-?: P[K] extends { [X in M]: object } ? K : never;
}[keyof P] &
  string;

/** The operation object of `method` on `path`. */
export type Operation<P, Path extends keyof P, M extends Method> = P[Path] extends { [X in M]: infer O }
  ? O
  : never;

type ResponsesOf<O> = O extends { responses: infer R } ? R : never;
type SuccessStatus = 200 | 201 | 202 | 204;
/** A response's body: its JSON, null for no content (a 204: api.ts answers null), unknown for other media. */
type BodyOf<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content?: never }
    ? null
    : unknown;

/** What a successful call answers (the union of its documented 2xx bodies). */
export type SuccessBody<O> = {
  [S in keyof ResponsesOf<O>]: S extends SuccessStatus ? BodyOf<ResponsesOf<O>[S]> : never;
}[keyof ResponsesOf<O>];

/** The body a documented error status answers (the services' `{ message, code?, details? }`). */
export type ErrorBody<O, S extends number> = S extends keyof ResponsesOf<O>
  ? BodyOf<ResponsesOf<O>[S]>
  : never;

/** The JSON request body of an operation (undefined when it takes none). */
export type JsonBody<O> = O extends { requestBody?: never }
  ? undefined
  : O extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : O extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : undefined;

type ParametersOf<O> = O extends { parameters: infer Params } ? Params : never;
export type PathParams<O> = ParametersOf<O> extends { path: infer PP } ? PP : undefined;
export type QueryOf<O> =
  ParametersOf<O> extends { query?: never }
    ? undefined
    : ParametersOf<O> extends { query: infer Q }
      ? Q
      : ParametersOf<O> extends { query?: infer Q }
        ? Q | undefined
        : undefined;

/** Shorthands a screen or a test fixture can name: `ResponseOf<JobsPaths, '/api/dashboard/jobs/{id}', 'get'>`. */
export type ResponseOf<P, Path extends PathsWith<P, M>, M extends Method = 'get'> = SuccessBody<
  Operation<P, Path, M>
>;
export type RequestBodyOf<P, Path extends PathsWith<P, M>, M extends Method> = JsonBody<
  Operation<P, Path, M>
>;

type Options = Omit<RequestOptions, 'query'>;
type Required_<K extends string, T> = [T] extends [undefined] ? { [X in K]?: undefined } : { [X in K]: T };
/** The `params` (path), `query` and `body` an operation requires, plus the api.ts options. */
export type CallInit<O, WithBody extends boolean> = Options &
  Required_<'params', PathParams<O>> &
  (undefined extends QueryOf<O> ? { query?: QueryOf<O> } : { query: QueryOf<O> }) &
  (WithBody extends true ? Required_<'body', JsonBody<O>> : { body?: undefined });
/** `init` may be left out when the operation needs nothing in it. */
type Args<O, WithBody extends boolean> =
  object extends CallInit<O, WithBody> ? [init?: CallInit<O, WithBody>] : [init: CallInit<O, WithBody>];

interface AnyInit extends Options {
  params?: Record<string, string | number>;
  query?: unknown;
  body?: unknown;
}

/** `/api/x/{id}` with `{ id }`: each path parameter URL-encoded; a missing one is a programming error. */
export function fillPath(template: string, params: Record<string, string | number> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '')
      throw new Error(`${template}: no value for path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

function options(init: AnyInit | undefined): RequestOptions {
  const { params: _params, query, body: _body, ...rest } = init ?? {};
  return query === undefined ? rest : { ...rest, query: query as QueryParams };
}

/** The typed client of one service's `paths`. */
export interface TypedApi<P> {
  /** The URL of a path template with its parameters filled in (for query keys, links, downloads). */
  url<Path extends keyof P & string>(path: Path, params?: Record<string, string | number>): string;
  get<Path extends PathsWith<P, 'get'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'get'>, false>
  ): Promise<SuccessBody<Operation<P, Path, 'get'>>>;
  /** GET that answers null for a 401 (no session), as getQueryFn({ on401: 'returnNull' }) does. */
  getIfSignedIn<Path extends PathsWith<P, 'get'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'get'>, false>
  ): Promise<SuccessBody<Operation<P, Path, 'get'>> | null>;
  /** A list GET through apiPage: the items and the total (envelope `total` or X-Total-Count). */
  page<Path extends PathsWith<P, 'get'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'get'>, false>
  ): Promise<Page<ItemOf<SuccessBody<Operation<P, Path, 'get'>>>>>;
  post<Path extends PathsWith<P, 'post'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'post'>, true>
  ): Promise<SuccessBody<Operation<P, Path, 'post'>>>;
  put<Path extends PathsWith<P, 'put'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'put'>, true>
  ): Promise<SuccessBody<Operation<P, Path, 'put'>>>;
  patch<Path extends PathsWith<P, 'patch'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'patch'>, true>
  ): Promise<SuccessBody<Operation<P, Path, 'patch'>>>;
  delete<Path extends PathsWith<P, 'delete'>>(
    path: Path,
    ...init: Args<Operation<P, Path, 'delete'>, true>
  ): Promise<SuccessBody<Operation<P, Path, 'delete'>>>;
  /** A multipart POST (file uploads) through apiUpload; the answer is typed, the form is the caller's. */
  upload<Path extends PathsWith<P, 'post'>>(
    path: Path,
    form: FormData,
    init?: Options & { params?: PathParams<Operation<P, Path, 'post'>> },
  ): Promise<SuccessBody<Operation<P, Path, 'post'>>>;
}

/** A list answer's item: the array's element, or the `items` / `data` of an envelope. */
export type ItemOf<B> = B extends readonly (infer I)[]
  ? I
  : B extends { items: readonly (infer I)[] }
    ? I
    : B extends { data: readonly (infer I)[] }
      ? I
      : never;

export function typedApi<P>(): TypedApi<P> {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, init?: AnyInit) =>
    apiJson<never>(method, fillPath(path, init?.params), init?.body, options(init));
  return {
    url: (path, params) => fillPath(path, params),
    get: (path, ...[init]) => call('GET', path, init as AnyInit),
    getIfSignedIn: async (path, ...[init]) => {
      try {
        return await call('GET', path, init as AnyInit);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    page: (path, ...[init]) =>
      apiPage<never>(fillPath(path, (init as AnyInit | undefined)?.params), options(init as AnyInit)),
    post: (path, ...[init]) => call('POST', path, init as AnyInit),
    put: (path, ...[init]) => call('PUT', path, init as AnyInit),
    patch: (path, ...[init]) => call('PATCH', path, init as AnyInit),
    delete: (path, ...[init]) => call('DELETE', path, init as AnyInit),
    upload: (path, form, init) =>
      apiUpload<never>(
        fillPath(path, init?.params as Record<string, string> | undefined),
        form,
        options(init as AnyInit),
      ),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Test fixtures

/** The documented statuses of an operation. */
export type StatusOf<O> = keyof ResponsesOf<O> & number;
/** The body an operation answers with `status` (its JSON; null for no content). */
export type BodyAt<O, S> = S extends keyof ResponsesOf<O> ? BodyOf<ResponsesOf<O>[S]> : never;

/**
 * A stubbed answer and the operation it stands for. Component tests build their answers from fixtures listed as
 * these: the body is typed by the generated types (tsc fails on a renamed field), and
 * test/unit/api-types-fixtures.test.ts checks each against the response schema in `<service>.openapi.json`.
 */
export interface AnswerFixture {
  service: string;
  method: Method;
  path: string;
  status: number;
  body: unknown;
}

/** `answerOf<JobsPaths>('jobs')('get', '/api/dashboard/jobs/{id}', 200, job())`: an AnswerFixture, typed. */
export function answerOf<P>(service: string) {
  return <M extends Method, Path extends PathsWith<P, M>, S extends StatusOf<Operation<P, Path, M>>>(
    method: M,
    path: Path,
    status: S,
    body: BodyAt<Operation<P, Path, M>, S>,
  ): AnswerFixture => ({ service, method, path, status, body });
}
