/** The unsubscribe page's call (notify's public /api/unsubscribe route), typed by notify's OpenAPI document. */
import type { paths } from '@tyres/platform/api-types/notify';
import { typedApi } from '@tyres/platform/typed-api';

const notify = typedApi<paths>();

/** POST /api/unsubscribe/{token}: unsubscribed at once (idempotent); 404 for a link that is not valid. */
export const unsubscribe = (token: string) => notify.post('/api/unsubscribe/{token}', { params: { token } });
