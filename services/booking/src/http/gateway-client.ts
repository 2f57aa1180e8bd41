import { injectInto } from '@tyres/telemetry';
import { z } from 'zod';
import { GatewayUnavailableError, type GatewayClient } from '../app/roster-sync';

/** The gateway's answer to GET /internal/technicians (fields booking relies on; others ignored). */
export const technicianSnapshotSchema = z.looseObject({
  technicians: z.array(
    z.looseObject({
      userId: z.string().uuid(),
      username: z.string().min(1),
      isActive: z.boolean(),
      /** When the gateway's user row last changed: the fact's time for "newest fact wins". */
      changedAt: z.string().datetime({ offset: true }),
    }),
  ),
});

/** The gateway's internal API (deploy/service-calls.json: booking → gateway, GATEWAY_URL). */
export function httpGatewayClient(baseUrl: string, timeoutMs = 5000): GatewayClient {
  return {
    async technicians() {
      const url = new URL('/internal/technicians', baseUrl);
      const headers: Record<string, string> = { accept: 'application/json' };
      injectInto(headers);
      let res: Response;
      try {
        res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        const cause =
          err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : '';
        throw new GatewayUnavailableError(`unreachable (${cause || 'no answer'})`);
      }
      if (res.status === 404) {
        await res.body?.cancel().catch(() => undefined);
        throw new GatewayUnavailableError(
          'GET /internal/technicians answered 404 (a gateway without the route)',
          true,
        );
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new GatewayUnavailableError(`GET /internal/technicians answered ${res.status}`);
      }
      const parsed = technicianSnapshotSchema.safeParse(await res.json().catch(() => undefined));
      if (!parsed.success) throw new GatewayUnavailableError('the answer is not the expected shape');
      return parsed.data.technicians;
    },
  };
}
