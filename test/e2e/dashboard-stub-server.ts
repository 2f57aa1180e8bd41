/**
 * Dev and benchmark aid for the staff dashboard (never used by the real stack): serves the built front ends the way
 * the gateway does, plus an in-memory stand-in for every API the dashboard calls, shaped like the real services
 * (jobs: page/pageSize with X-Total-Count; billing: limit/offset; booking slots; reporting; gateway users and
 * session) and a /ws/notifications WebSocket.
 *
 *   npm run build:frontends && npx tsx test/e2e/dashboard-stub-server.ts        # PORT=8090, STUB_JOBS=60
 *
 * Logins: admin/secret123 (admin), tech/secret123 (technician, sees only the jobs assigned to them).
 * POST /__stub/booking pushes a new booking to every connected dashboard (body: optional job fields).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

const ROOT = path.resolve(__dirname, '../..');
const SHELL_DIST = path.join(ROOT, 'frontends/shell/dist');
const REMOTES: Record<string, string> = {
  '/remotes/public/': path.join(ROOT, 'frontends/public/dist'),
  '/remotes/dashboard/': path.join(ROOT, 'frontends/dashboard/dist'),
};
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// ------------------------------------------------------------------------------------------------ data
const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];
const SERVICES = ['new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout'];
const SUBURBS = [
  'Joondalup',
  'Rockingham',
  'Mandurah',
  'Fremantle',
  'Midland',
  'Armadale',
  'Scarborough',
  'Canning Vale',
  'Baldivis',
  'Ellenbrook',
];
const NAMES = [
  'Olivia Smith',
  'Jack Wilson',
  'Charlotte Brown',
  'Noah Taylor',
  'Amelia Jones',
  'William Nguyen',
  'Isla Martin',
  'Oliver Lee',
  'Mia Walker',
  'Lucas White',
];
const STREETS = [
  'Wanneroo Road',
  'Great Eastern Highway',
  'Stirling Highway',
  'Albany Highway',
  'Canning Highway',
  'Ocean Reef Road',
  'Marmion Avenue',
];
const CARS = [
  ['Toyota', 'Hilux'],
  ['Ford', 'Ranger'],
  ['Mazda', 'CX-5'],
  ['Hyundai', 'i30'],
  ['Mitsubishi', 'Triton'],
  ['Kia', 'Sportage'],
];
const STATUSES = ['new', 'new', 'in-progress', 'completed', 'invoiced', 'paid'];

const USERS = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    username: 'admin',
    email: 'admin@example.com',
    role: 'admin',
    isActive: true,
    createdAt: '2026-01-05T01:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    username: 'tech',
    email: null,
    role: 'technician',
    isActive: true,
    createdAt: '2026-02-01T01:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    username: 'sam.fitter',
    email: 'sam@example.com',
    role: 'technician',
    isActive: true,
    createdAt: '2026-03-11T01:00:00.000Z',
  },
  {
    id: '00000000-0000-4000-8000-000000000004',
    username: 'jo.tyres',
    email: null,
    role: 'technician',
    isActive: false,
    createdAt: '2026-04-20T01:00:00.000Z',
  },
] as {
  id: string;
  username: string;
  email: string | null;
  role: 'admin' | 'technician';
  isActive: boolean;
  createdAt: string;
}[];
const PASSWORD = 'secret123';

type Job = Record<string, unknown> & {
  id: string;
  jobNumber: string;
  status: string;
  assignedTechnicianId: string | null;
  deleted?: boolean;
};

const uuid = (n: number, prefix = 'a') => `${prefix.repeat(8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const perthToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const money = (cents: number) => (cents / 100).toFixed(2);

function makeJob(i: number): Job {
  const status = STATUSES[i % STATUSES.length]!;
  const service = SERVICES[i % SERVICES.length]!;
  const [make, model] = CARS[i % CARS.length]!;
  const name = NAMES[i % NAMES.length]!;
  const created = new Date(Date.now() - i * 3_600_000);
  const scheduled = addDays(perthToday(), (i % 14) - 4);
  const tech = status === 'new' && i % 3 === 0 ? null : i % 2 === 0 ? USERS[1]!.id : USERS[2]!.id;
  const at = (step: number) =>
    STATUSES.indexOf(status) >= step ? new Date(created.getTime() + step * 1_800_000).toISOString() : null;
  const tyres = service === 'new-tyres';
  return {
    id: uuid(i + 1),
    jobNumber: `JOB-${String(100000 + i).slice(1)}`,
    status,
    scheduleStatus:
      status === 'new'
        ? tech
          ? 'confirmed'
          : 'pending'
        : status === 'in-progress'
          ? 'in_progress'
          : 'completed',
    serviceType: service,
    tyreSize: tyres ? '205/55R16' : null,
    tyreQuantity: tyres ? 4 : null,
    tyreBrand: tyres ? 'Michelin' : null,
    address: `${10 + (i % 180)} ${STREETS[i % STREETS.length]}`,
    suburb: SUBURBS[i % SUBURBS.length],
    postcode: String(6000 + (i % 200)),
    scheduledDate: scheduled,
    timeSlot: SLOTS[i % SLOTS.length],
    customerValue: money(tyres ? 74980 : service === 'puncture-repair' ? 12980 : 8980),
    assignedTechnicianId: tech,
    assignedTechnician: tech ? { id: tech, username: USERS.find((u) => u.id === tech)!.username } : null,
    createdAt: created.toISOString(),
    inProgressAt: at(2),
    completedAt: at(3),
    invoicedAt: at(4),
    paidAt: at(5),
    paymentMethod: i % 4 === 0 ? 'prepaid' : 'onsite',
    paymentStatus: status === 'paid' ? 'paid' : 'pending',
    notes: i % 5 === 0 ? 'Customer prefers a call 15 minutes before arrival.' : null,
    customer: {
      name,
      phone: `04${String(10000000 + i * 7919).slice(-8)}`,
      email: `${name.toLowerCase().replace(' ', '.')}@example.com`,
    },
    vehicle: {
      make,
      model,
      year: 2012 + (i % 12),
      registration: `1${String.fromCharCode(65 + (i % 26))}BC${String(100 + (i % 900))}`,
      color: 'White',
    },
    photos:
      i % 7 === 0
        ? [{ id: uuid(i + 1, 'p'), type: 'tyre-condition', originalName: 'front-left-tyre-wear.jpg' }]
        : [],
    hasCustomerInvoice: ['invoiced', 'paid'].includes(status),
  };
}

export interface StubState {
  jobs: Job[];
  invoices: Record<string, unknown>[];
  purchases: Record<string, unknown>[];
  expenses: Record<string, unknown>[];
  blocks: Map<string, string>;
}

export function createState(jobCount: number): StubState {
  const jobs = Array.from({ length: jobCount }, (_, i) => makeJob(i));
  const invoices = jobs
    .filter((j) => j.status === 'invoiced' || j.status === 'paid')
    .slice(0, 200)
    .map((j, n) => {
      const subtotal = Math.round((Number(j.customerValue) * 100) / 1.1);
      const gst = Math.round(subtotal / 10);
      const due = addDays(perthToday(), (n % 40) - 5);
      return {
        id: uuid(n + 1, 'b'),
        jobId: j.id,
        invoiceNumber: `INV-${String(1000 + n).padStart(6, '0')}`,
        status: j.status === 'paid' ? 'paid' : n % 3 === 0 ? 'sent' : 'draft',
        invoiceDate: addDays(perthToday(), -(n % 20)),
        dueDate: due,
        subtotalAmount: money(subtotal),
        gstAmount: money(gst),
        totalAmount: money(subtotal + gst),
        jobNumber: j.jobNumber,
        customerName: (j.customer as { name: string }).name,
        job: { id: j.id, jobNumber: j.jobNumber, serviceType: j.serviceType, customer: j.customer },
        items: [
          {
            id: uuid(n + 1, 'c'),
            description: 'Callout fee',
            category: 'callout',
            quantity: 1,
            unitPrice: '81.64',
            totalPrice: '81.64',
          },
          {
            id: uuid(n + 1, 'd'),
            description: 'Labour',
            category: 'labour',
            quantity: 1,
            unitPrice: money(subtotal - 8164),
            totalPrice: money(subtotal - 8164),
          },
        ],
      };
    });
  const expenses = [
    ['BP Joondalup', 'Fuel for the van', 'fuel', 18500, true],
    ['Telstra', 'Mobile plan', 'subscriptions', 8900, false],
    ['Bunnings', 'Wheel chocks and gloves', 'tools', 12495, false],
    ['RAC Insurance', 'Van insurance (quarter)', 'insurance', 64500, true],
    ['Facebook Ads', 'Local ads November', 'marketing', 25000, false],
  ].map(([supplierName, description, category, cents, isPaid], n) => ({
    id: uuid(n + 1, 'e'),
    supplierName,
    invoiceNumber: n % 2 ? `S-${4000 + n}` : null,
    description,
    amount: money(cents as number),
    gstAmount: money(Math.round((cents as number) / 11)),
    category,
    expenseDate: addDays(perthToday(), -n * 3),
    dueDate: isPaid ? null : addDays(perthToday(), 10 + n),
    isPaid,
    paidAt: null,
    notes: null,
  }));
  const purchases = jobs
    .slice(0, 30)
    .filter((j) => j.serviceType === 'new-tyres')
    .map((j, n) => ({
      id: uuid(n + 1, 'f'),
      jobId: j.id,
      invoiceNumber: `TP-${7000 + n}`,
      supplierName: n % 2 ? 'Tyrepower Wholesale' : 'Bridgestone Supply',
      invoiceDate: addDays(perthToday(), -n),
      totalAmount: '420.00',
      gstAmount: '38.18',
      category: 'cost-of-goods-sold',
      isPaid: n % 2 === 0,
      paidAt: n % 2 === 0 ? new Date().toISOString() : null,
    }));
  return { jobs, invoices, purchases, expenses, blocks: new Map() };
}

// ------------------------------------------------------------------------------------------------ http helpers
function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function sessionUser(req: IncomingMessage) {
  const match = /(?:^|;\s*)stub_session=([a-z.]+)(?:;|$)/.exec(req.headers.cookie ?? '');
  const user = match ? USERS.find((u) => u.username === match[1]) : undefined;
  return user && user.isActive ? user : null;
}

async function sendFile(res: ServerResponse, file: string): Promise<boolean> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return false;
  const hashed = /\.[0-9a-f]{8,}\.[a-z0-9]+$/.test(path.basename(file));
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  createReadStream(file).pipe(res);
  return true;
}

// ------------------------------------------------------------------------------------------------ api
export function createApi(state: StubState, options: { latencyMs?: number } = {}) {
  const sockets = new Set<WebSocket>();
  let counter = state.jobs.length;

  const visibleJobs = (user: (typeof USERS)[number]) =>
    state.jobs.filter((j) => !j.deleted && (user.role === 'admin' || j.assignedTechnicianId === user.id));

  function broadcast(job: Job) {
    const message = JSON.stringify({
      type: 'new_booking',
      data: {
        id: job.id,
        jobNumber: job.jobNumber,
        serviceType: job.serviceType,
        suburb: job.suburb,
        timeSlot: job.timeSlot,
        createdAt: job.createdAt,
        scheduledDate: job.scheduledDate,
      },
    });
    for (const ws of sockets) ws.send(message);
  }

  function newBooking(body: Record<string, unknown> = {}): Job {
    const job = {
      ...makeJob(counter),
      ...body,
      id: uuid(counter + 1),
      jobNumber: `JOB-${String(100000 + counter).slice(1)}`,
      status: 'new',
      assignedTechnicianId: null,
      assignedTechnician: null,
      scheduleStatus: 'pending',
      createdAt: new Date().toISOString(),
      inProgressAt: null,
      completedAt: null,
      invoicedAt: null,
      paidAt: null,
    } as Job;
    counter += 1;
    state.jobs.unshift(job);
    broadcast(job);
    return job;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const p = url.pathname;
    const m = req.method ?? 'GET';
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));

    if (p === '/__stub/booking' && m === 'POST') return json(res, 201, newBooking(await readBody(req)));
    if (p === '/api/login' && m === 'POST') {
      const body = await readBody(req);
      const user = USERS.find((u) => u.username === String(body.username ?? '').toLowerCase());
      if (!user || body.password !== PASSWORD)
        return json(res, 401, { message: 'Invalid username or password' });
      if (!user.isActive)
        return json(res, 403, {
          message: 'This account has been deactivated. Please contact an administrator.',
        });
      return json(res, 200, user, {
        'Set-Cookie': `stub_session=${user.username}; Path=/; HttpOnly; SameSite=Lax`,
      });
    }
    if (p === '/api/logout' && m === 'POST')
      return json(res, 200, { message: 'Logged out' }, { 'Set-Cookie': 'stub_session=; Path=/; Max-Age=0' });
    const user = sessionUser(req);
    if (p === '/api/user')
      return user ? json(res, 200, user) : json(res, 401, { message: 'Not authenticated' });

    // public booking endpoints
    if (p === '/api/time-slots/availability' || p === '/api/time-slots') {
      const date = url.searchParams.get('date') ?? perthToday();
      return json(
        res,
        200,
        SLOTS.map((slot) => ({
          slot,
          isAvailable: !state.blocks.has(`${date}|${slot}`),
          blockedReason: state.blocks.get(`${date}|${slot}`) ?? null,
        })),
      );
    }
    if (p.startsWith('/api/time-slots/')) {
      const date = decodeURIComponent(p.split('/')[3]!);
      return json(
        res,
        200,
        SLOTS.filter((s) => !state.blocks.has(`${date}|${s}`)).map((slot) => ({ slot })),
      );
    }
    if (p.startsWith('/api/tyre-pricing/')) {
      const size = decodeURIComponent(p.slice('/api/tyre-pricing/'.length));
      return size === '205/55R16'
        ? json(res, 200, { price: '139.00' })
        : json(res, 404, {
            error: 'Custom quote needed',
            message: 'Please call for a quote on this tyre size',
            callbackRequired: true,
          });
    }
    if (p === '/api/addresses/suggestions') {
      const q = url.searchParams.get('q') ?? '';
      return json(
        res,
        200,
        SUBURBS.slice(0, 5).map((s, i) => ({
          streetAddress: `${12 + i} ${q}`,
          fullAddress: `${12 + i} ${q}, ${s} WA ${6000 + i}`,
          suburb: s,
          postcode: String(6000 + i),
        })),
      );
    }
    if (p === '/api/bookings' && m === 'POST') {
      const body = await readBody(req);
      const job = body.job as Record<string, unknown>;
      const created = newBooking({
        serviceType: job.serviceType,
        suburb: job.suburb,
        timeSlot: job.timeSlot,
        scheduledDate: String(job.scheduledDate).slice(0, 10),
        customer: body.customer,
        vehicle: body.vehicle,
        address: job.address,
        postcode: job.postcode,
      });
      return json(res, 201, { jobId: created.id, jobNumber: created.jobNumber });
    }

    if (!user) return json(res, 401, { message: 'Not authenticated' });
    const admin = user.role === 'admin';

    // gateway: users
    if (p === '/api/admin/users') {
      if (!admin) return json(res, 403, { message: 'Admins only' });
      if (m === 'GET') return json(res, 200, USERS);
      const body = await readBody(req);
      const created = {
        id: uuid(USERS.length + 1, '9'),
        username: String(body.username),
        email: (body.email as string) || null,
        role: (body.role as 'admin' | 'technician') ?? 'technician',
        isActive: true,
        createdAt: new Date().toISOString(),
      };
      USERS.push(created);
      return json(res, 201, created);
    }
    const userStatus = /^\/api\/admin\/users\/([^/]+)\/status$/.exec(p);
    if (userStatus && m === 'PATCH') {
      const target = USERS.find((u) => u.id === userStatus[1]);
      if (!target) return json(res, 404, { message: 'User not found' });
      target.isActive = Boolean((await readBody(req)).isActive);
      return json(res, 200, target);
    }

    // jobs
    if (p === '/api/dashboard/jobs-with-details' || p === '/api/dashboard/jobs') {
      const status = url.searchParams.get('status');
      const schedule = url.searchParams.get('scheduleStatus');
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
      const pageSize = Math.min(100, Number(url.searchParams.get('pageSize') ?? 50));
      let list = visibleJobs(user);
      if (status && status !== 'all') list = list.filter((j) => j.status === status);
      if (schedule && schedule !== 'all') list = list.filter((j) => j.scheduleStatus === schedule);
      return json(res, 200, list.slice((page - 1) * pageSize, page * pageSize), {
        'X-Total-Count': String(list.length),
      });
    }
    if (p === '/api/dashboard/technicians')
      return json(
        res,
        200,
        USERS.filter((u) => u.role === 'technician' && u.isActive && (admin || u.id === user.id)),
      );
    const photo = /^\/api\/dashboard\/jobs\/([^/]+)\/photos\/([^/]+)$/.exec(p);
    if (photo) {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      res.end(
        `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#374151"/><circle cx="200" cy="150" r="110" fill="#111827"/><circle cx="200" cy="150" r="55" fill="#9ca3af"/></svg>`,
      );
      return;
    }
    const jobMatch = /^\/api\/dashboard\/jobs\/([^/]+)(?:\/(status|assign|reschedule))?$/.exec(p);
    if (jobMatch) {
      const job = visibleJobs(user).find((j) => j.id === jobMatch[1]);
      if (!job) return json(res, 404, { message: 'Job not found' });
      const action = jobMatch[2];
      if (!action && m === 'GET') return json(res, 200, job);
      if (!action && m === 'DELETE') {
        job.deleted = true;
        return json(res, 200, { success: true });
      }
      const body = await readBody(req);
      if (action === 'status') {
        const order = ['new', 'in-progress', 'completed', 'invoiced', 'paid'];
        const to = String(body.status);
        if (order.indexOf(to) !== order.indexOf(job.status) + 1)
          return json(res, 409, {
            message: `Cannot change job ${job.jobNumber} from ${job.status} to ${to}`,
          });
        job.status = to;
        const field = {
          'in-progress': 'inProgressAt',
          completed: 'completedAt',
          invoiced: 'invoicedAt',
          paid: 'paidAt',
        }[to]!;
        job[field] = new Date().toISOString();
        job.scheduleStatus = to === 'in-progress' ? 'in_progress' : 'completed';
        return json(res, 200, { ...job, smsRequested: Boolean(body.notifyCustomer) });
      }
      if (action === 'assign') {
        const tech = USERS.find((u) => u.id === body.technicianId);
        job.assignedTechnicianId = tech?.id ?? null;
        job.assignedTechnician = tech ? { id: tech.id, username: tech.username } : null;
        if (job.status === 'new') job.scheduleStatus = tech ? 'confirmed' : 'pending';
        return json(res, 200, job);
      }
      if (action === 'reschedule') {
        job.scheduledDate = body.scheduledDate;
        job.timeSlot = body.timeSlot;
        return json(res, 200, job);
      }
    }

    // billing
    const purchasesOfJob = /^\/api\/dashboard\/purchase-invoices\/job\/([^/]+)$/.exec(p);
    if (purchasesOfJob)
      return json(
        res,
        200,
        state.purchases.filter((x) => x.jobId === purchasesOfJob[1]),
      );
    if (p === '/api/dashboard/purchase-invoices' && m === 'POST') {
      const body = await readBody(req);
      const created = {
        id: uuid(state.purchases.length + 100, 'f'),
        paidAt: null,
        ...body,
        isPaid: Boolean(body.isPaid),
      };
      state.purchases.push(created);
      return json(res, 201, { success: true, purchaseInvoice: created });
    }
    const purchase = /^\/api\/dashboard\/purchase-invoices\/([^/]+)$/.exec(p);
    if (purchase) {
      const index = state.purchases.findIndex((x) => x.id === purchase[1]);
      if (index < 0) return json(res, 404, { message: 'Purchase invoice not found' });
      if (m === 'DELETE') state.purchases.splice(index, 1);
      else Object.assign(state.purchases[index]!, await readBody(req));
      return json(res, 200, { success: true });
    }
    if (p === '/api/dashboard/customer-invoices' && m === 'GET') {
      if (!admin) return json(res, 403, { message: 'Admins only' });
      const status = url.searchParams.get('status');
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      let list = state.invoices;
      if (status) list = list.filter((i) => i.status === status);
      if (search)
        list = list.filter((i) =>
          JSON.stringify([i.invoiceNumber, i.jobNumber, i.customerName]).toLowerCase().includes(search),
        );
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return json(res, 200, list.slice(offset, offset + limit), { 'X-Total-Count': String(list.length) });
    }
    if (p === '/api/dashboard/customer-invoices' && m === 'POST') {
      const body = await readBody(req);
      const job = state.jobs.find((j) => j.id === body.jobId);
      if (!job) return json(res, 404, { message: 'Job not found' });
      const created = {
        id: uuid(state.invoices.length + 500, 'b'),
        invoiceNumber: `INV-${String(2000 + state.invoices.length).padStart(6, '0')}`,
        invoiceDate: perthToday(),
        jobNumber: job.jobNumber,
        customerName: (job.customer as { name: string }).name,
        job: { jobNumber: job.jobNumber, customer: job.customer },
        items: [],
        ...body,
      };
      state.invoices.unshift(created);
      return json(res, 201, {
        success: true,
        message: 'Invoice created successfully',
        customerInvoice: created,
      });
    }
    const generate = /^\/api\/dashboard\/customer-invoices\/generate\/([^/]+)$/.exec(p);
    if (generate) {
      const job = visibleJobs(user).find((j) => j.id === generate[1]);
      if (!job) return json(res, 404, { message: 'Job not found' });
      const created = {
        id: uuid(state.invoices.length + 900, 'b'),
        jobId: job.id,
        invoiceNumber: `INV-${String(3000 + state.invoices.length).padStart(6, '0')}`,
        status: 'draft',
        invoiceDate: perthToday(),
        dueDate: addDays(perthToday(), 30),
        subtotalAmount: '681.64',
        gstAmount: '68.16',
        totalAmount: '749.80',
        jobNumber: job.jobNumber,
        customerName: (job.customer as { name: string }).name,
        job: { jobNumber: job.jobNumber, customer: job.customer },
        items: [],
      };
      state.invoices.unshift(created);
      return json(res, 201, { success: true, customerInvoice: created });
    }
    const invoicesOfJob = /^\/api\/dashboard\/customer-invoices\/job\/([^/]+)$/.exec(p);
    if (invoicesOfJob)
      return json(
        res,
        200,
        state.invoices.filter((i) => i.jobId === invoicesOfJob[1]),
      );
    const invoice =
      /^\/api\/dashboard\/customer-invoices\/([^/]+)(?:\/(items|pdf|email|download))?(?:\/([^/]+))?$/.exec(p);
    if (invoice) {
      const found = state.invoices.find((i) => i.id === invoice[1]);
      if (!found) return json(res, 404, { message: 'Invoice not found' });
      const items = found.items as Record<string, unknown>[];
      const recompute = () => {
        const sub = items.reduce((s, it) => s + Math.round(Number(it.totalPrice) * 100), 0);
        found.subtotalAmount = money(sub);
        found.gstAmount = money(Math.round(sub / 10));
        found.totalAmount = money(sub + Math.round(sub / 10));
      };
      switch (invoice[2]) {
        case undefined:
          if (m === 'GET') return json(res, 200, found);
          if (m === 'DELETE') {
            state.invoices.splice(state.invoices.indexOf(found), 1);
            return json(res, 200, { success: true });
          }
          Object.assign(found, await readBody(req));
          return json(res, 200, { success: true, customerInvoice: found });
        case 'items': {
          if (m === 'GET') return json(res, 200, items);
          const body = await readBody(req);
          if (m === 'POST')
            items.push({
              id: uuid(Math.floor(Math.random() * 1e9), '7'),
              ...body,
              totalPrice: money(Number(body.quantity) * Math.round(Number(body.unitPrice) * 100)),
            });
          else {
            const index = items.findIndex((it) => it.id === invoice[3]);
            if (m === 'DELETE') items.splice(index, 1);
            else
              Object.assign(items[index]!, body, {
                totalPrice: money(Number(body.quantity) * Math.round(Number(body.unitPrice) * 100)),
              });
          }
          recompute();
          return json(res, m === 'POST' ? 201 : 200, { success: true });
        }
        case 'pdf':
          if (m === 'GET') {
            res.writeHead(200, {
              'Content-Type': 'application/pdf',
              'Content-Disposition': `attachment; filename="${String(found.invoiceNumber)}.pdf"`,
            });
            res.end('%PDF-1.4\n% stub invoice\n');
            return;
          }
          return json(res, 200, {
            downloadUrl: `/api/dashboard/customer-invoices/${found.id}/pdf`,
            filename: `${String(found.invoiceNumber)}.pdf`,
            invoiceNumber: found.invoiceNumber,
          });
        case 'email':
          found.status = 'sent';
          return json(res, 200, {
            success: true,
            message: `Invoice emailed to ${(found.job as { customer: { email?: string } }).customer.email ?? 'the customer'}`,
          });
      }
    }
    if (p === '/api/dashboard/business-expenses') {
      if (m === 'GET') {
        const category = url.searchParams.get('category');
        const paid = url.searchParams.get('paid');
        let list = state.expenses;
        if (category) list = list.filter((e) => e.category === category);
        if (paid) list = list.filter((e) => e.isPaid === (paid === 'paid'));
        return json(res, 200, list);
      }
      const created = { id: uuid(state.expenses.length + 50, 'e'), ...(await readBody(req)) };
      state.expenses.unshift(created);
      return json(res, 201, { success: true, expense: created });
    }
    const expense = /^\/api\/dashboard\/business-expenses\/([^/]+)(\/mark-paid)?$/.exec(p);
    if (expense) {
      const found = state.expenses.find((e) => e.id === expense[1]);
      if (!found) return json(res, 404, { message: 'Expense not found' });
      if (m === 'DELETE') state.expenses.splice(state.expenses.indexOf(found), 1);
      else if (expense[2]) Object.assign(found, { isPaid: true, paidAt: new Date().toISOString() });
      else Object.assign(found, await readBody(req));
      return json(res, 200, { success: true, expense: found });
    }

    // booking: admin slots
    const slots = /^\/api\/dashboard\/timeslots\/([^/]+)(?:\/([^/]+)\/(block|unblock))?$/.exec(p);
    if (slots) {
      const date = decodeURIComponent(slots[1]!);
      if (slots[3]) {
        const key = `${date}|${decodeURIComponent(slots[2]!)}`;
        if (slots[3] === 'block') state.blocks.set(key, String((await readBody(req)).reason ?? ''));
        else state.blocks.delete(key);
        return json(res, 200, { success: true });
      }
      const weekend = [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
      return json(
        res,
        200,
        SLOTS.map((slot, i) => {
          const booked = state.jobs.find(
            (j) => !j.deleted && j.scheduledDate === date && j.timeSlot === slot && j.status !== 'cancelled',
          );
          const blocked = state.blocks.get(`${date}|${slot}`);
          return {
            id: `${date}|${slot}`,
            date,
            slot,
            isAvailable: !weekend && !blocked && !booked,
            blockedReason: weekend ? 'Closed on weekends' : (blocked ?? null),
            isBlocked: Boolean(blocked),
            state: weekend ? 'closed' : blocked ? 'blocked' : booked ? 'booked' : 'available',
            booking:
              booked && i >= 0 ? { jobId: booked.id, jobNumber: booked.jobNumber, kind: 'booking' } : null,
          };
        }),
      );
    }

    // reporting
    if (p === '/api/dashboard/reports/gst')
      return json(res, 200, {
        gstCollected: '1284.55',
        gstPaid: '412.30',
        netGST: '872.25',
        customerInvoices: state.invoices.slice(0, 12).map((i) => ({
          invoiceNumber: i.invoiceNumber,
          customerName: i.customerName,
          subtotal: i.subtotalAmount,
          gstAmount: i.gstAmount,
          totalAmount: i.totalAmount,
          issueDate: i.invoiceDate,
          status: i.status,
        })),
        purchaseInvoices: state.purchases.slice(0, 6).map((x) => ({
          invoiceNumber: x.invoiceNumber,
          supplierName: x.supplierName,
          subtotal: '381.82',
          gstAmount: x.gstAmount,
          totalAmount: x.totalAmount,
          invoiceDate: x.invoiceDate,
          isPaid: x.isPaid,
        })),
      });
    if (p === '/api/dashboard/reports/purchases-payables')
      return json(res, 200, {
        totalPurchases: '8640.00',
        totalPaid: '5040.00',
        totalPayables: '3600.00',
        overduePurchases: '840.00',
        purchasesBySupplier: [
          {
            supplierName: 'Tyrepower Wholesale',
            totalAmount: '4620.00',
            paidAmount: '2520.00',
            unpaidAmount: '2100.00',
            invoiceCount: 11,
          },
          {
            supplierName: 'Bridgestone Supply',
            totalAmount: '3180.00',
            paidAmount: '2520.00',
            unpaidAmount: '660.00',
            invoiceCount: 8,
          },
          {
            supplierName: 'Century Batteries',
            totalAmount: '840.00',
            paidAmount: '0.00',
            unpaidAmount: '840.00',
            invoiceCount: 2,
          },
        ],
        purchasesByCategory: [
          {
            category: 'cost-of-goods-sold',
            totalAmount: '8640.00',
            paidAmount: '5040.00',
            unpaidAmount: '3600.00',
            invoiceCount: 21,
          },
        ],
        upcomingPayments: state.purchases
          .filter((x) => !x.isPaid)
          .slice(0, 5)
          .map((x, n) => ({
            id: x.id,
            supplierName: x.supplierName,
            invoiceNumber: x.invoiceNumber,
            totalAmount: x.totalAmount,
            dueDate: addDays(perthToday(), n * 5 - 2),
            daysUntilDue: n * 5 - 2,
          })),
      });
    if (p === '/api/dashboard/reports/enhanced-pl')
      return json(res, 200, {
        revenue: { customerInvoices: '14130.00', jobRevenue: '2260.00', totalRevenue: '16390.00' },
        expenses: { jobCosts: '8640.00', businessExpenses: '1994.95', totalExpenses: '10634.95' },
        profit: { grossProfit: '7750.00', grossMargin: '47.3', netProfit: '5755.05', netMargin: '35.1' },
        breakdown: {
          topRevenueStreams: [
            { category: 'tyre', amount: '9800.00', percentage: '59.8' },
            { category: 'callout', amount: '3900.00', percentage: '23.8' },
            { category: 'labour', amount: '2690.00', percentage: '16.4' },
          ],
          topExpenseCategories: [
            { category: 'cost-of-goods-sold', amount: '8640.00', percentage: '81.2' },
            { category: 'insurance', amount: '645.00', percentage: '6.1' },
            { category: 'marketing', amount: '250.00', percentage: '2.4' },
            { category: 'fuel', amount: '185.00', percentage: '1.7' },
            { category: 'tools', amount: '124.95', percentage: '1.2' },
          ],
        },
      });
    return json(res, 404, { message: 'Not found' });
  }

  return { handle, sockets, newBooking };
}

export async function startDashboardStub(
  port: number,
  options: { jobs?: number; latencyMs?: number; host?: string } = {},
): Promise<Server & { api: ReturnType<typeof createApi> }> {
  const state = createState(options.jobs ?? 60);
  const api = createApi(state, options);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    (async () => {
      if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/__stub/'))
        return api.handle(req, res, url);
      for (const [prefix, dir] of Object.entries(REMOTES)) {
        if (url.pathname.startsWith(prefix)) {
          if (await sendFile(res, path.join(dir, url.pathname.slice(prefix.length)))) return;
          res.writeHead(404).end('Not found');
          return;
        }
      }
      if (url.pathname !== '/' && (await sendFile(res, path.join(SHELL_DIST, url.pathname)))) return;
      if (path.extname(url.pathname)) {
        res.writeHead(404).end('Not found');
        return;
      }
      if (!(await sendFile(res, path.join(SHELL_DIST, 'index.html'))))
        res.writeHead(503).end('build the front ends first');
    })().catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  }) as Server & { api: ReturnType<typeof createApi> };
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/ws/notifications') || !sessionUser(req)) {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      api.sockets.add(ws);
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { type?: string };
        if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      });
      ws.on('close', () => api.sockets.delete(ws));
    });
  });
  server.api = api;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? '127.0.0.1', () => resolve());
  });
  return server;
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 8090);
  startDashboardStub(port, {
    jobs: Number(process.env.STUB_JOBS ?? 60),
    latencyMs: Number(process.env.STUB_LATENCY_MS ?? 0),
  }).then(
    () =>
      console.log(`dashboard stub on http://127.0.0.1:${port}/dashboard (admin/secret123, tech/secret123)`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
