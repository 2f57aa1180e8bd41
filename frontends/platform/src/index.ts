export {
  ApiError,
  apiBlob,
  apiGet,
  apiJson,
  apiPage,
  apiRequest,
  apiUpload,
  downloadFile,
  errorMessage,
  getQueryFn,
  isNetworkError,
  newIdempotencyKey,
  queryKeyUrl,
  withQuery,
} from './api';
export type { HttpMethod, Page, QueryParams, QueryValue, RequestOptions, UnauthorizedBehavior } from './api';
export { answerOf, fillPath, typedApi } from './typed-api';
export type {
  AnswerFixture,
  BodyAt,
  CallInit,
  ErrorBody,
  ItemOf,
  JsonBody,
  Method,
  Operation,
  PathParams,
  PathsWith,
  QueryOf,
  RequestBodyOf,
  ResponseOf,
  StatusOf,
  SuccessBody,
  TypedApi,
} from './typed-api';
export { createQueryClient } from './query-client';
export {
  dismissToasts,
  toast,
  TOAST_CONFIG,
  TOAST_DURATION_MS,
  TOAST_REMOVE_DELAY_MS,
  useToast,
} from './toast';
export type { ToastApi, ToastOptions, ToastVariant } from './toast';
export { injectStyles } from './styles';
export { BRAND_PRIMARY, cssVar, cssVarName, PALETTE, paletteCss, theme } from './theme';
export type { PaletteColor } from './theme';
export type { BusinessInfo, RemoteAppModule, RemoteAppProps } from './contract';
