import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Router } from 'express';

type IServerAdapter = Parameters<typeof createBullBoard>[0]['serverAdapter'];

/**
 * bull-board for notify's queues, served at `basePath` (the public path behind the gateway, so the page's asset
 * and API URLs resolve through the gateway). Its page loads only same-origin scripts and styles (plus an optional
 * Google Fonts stylesheet), so it runs under the gateway's CSP (script-src 'self').
 */
export function bullBoardRouter(queues: Queue[], basePath: string): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(basePath);
  createBullBoard({
    queues: queues.map(
      (q) => new BullMQAdapter(q, { allowRetries: true, description: `notify ${q.name} deliveries` }),
    ),
    // @bull-board/express 9.10.1 carries its own @bull-board/api 9.10.1 (notify depends on 9.10.2): same shape, two
    // type declarations. Pin both to one version in package.json to drop this cast.
    serverAdapter: serverAdapter as unknown as IServerAdapter,
    options: { uiConfig: { boardTitle: 'Notify queues' } },
  });
  return serverAdapter.getRouter() as Router;
}
