import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Router } from 'express';

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
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Notify queues' } },
  });
  return serverAdapter.getRouter() as Router;
}
