/**
 * Issue 19: the business calendar's admin API under /api/dashboard/calendar (roster and leave, calendar blocks, WA
 * public holidays, capacity and the technician suggestion). Mounted by routes.ts; documented in
 * calendar-openapi.ts.
 */
import type { Express } from 'express';
import { isCalendarDate } from '@tyres/kernel';
import { badRequest, notFound, parseOr400, requireAdmin } from '@tyres/service-kit';
import type { BusinessCalendar } from '../app/calendar';
import {
  calendarBlockSchema,
  CALENDAR_MSG,
  holidayOpenSchema,
  leaveSchema,
  rosterDaysSchema,
} from '../domain/calendar';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOr404 = (v: unknown, message: string): string => {
  if (typeof v !== 'string' || !UUID.test(v)) throw notFound(message);
  return v;
};
const dateOr400 = (v: unknown): string => {
  if (!isCalendarDate(v)) throw badRequest(CALENDAR_MSG.date, undefined, 'invalid_date');
  return v;
};

export function calendarRoutes(deps: { calendar?: BusinessCalendar }) {
  return (app: Express): void => {
    // Resolved per request: the routes exist (and are documented) whether or not the app was wired with a calendar.
    const calendar = new Proxy({} as BusinessCalendar, {
      get: (_t, key: keyof BusinessCalendar) => {
        if (!deps.calendar) throw new Error('business calendar not configured');
        const v = deps.calendar[key];
        return typeof v === 'function' ? v.bind(deps.calendar) : v;
      },
    });
    const base = '/api/dashboard/calendar';

    app.get(`${base}/roster`, requireAdmin, async (_req, res) => {
      res.json(await calendar.roster());
    });
    app.put(`${base}/roster/:userId`, requireAdmin, async (req, res) => {
      const userId = uuidOr404(req.params.userId, CALENDAR_MSG.technicianNotFound);
      const { weekdays } = parseOr400(rosterDaysSchema, req.body ?? {});
      res.json(await calendar.setRosterDays(userId, weekdays, req.identity!));
    });
    app.post(`${base}/roster/:userId/leave`, requireAdmin, async (req, res) => {
      const userId = uuidOr404(req.params.userId, CALENDAR_MSG.technicianNotFound);
      const body = parseOr400(leaveSchema, req.body ?? {});
      res.status(201).json(await calendar.addLeave(userId, body, req.identity!));
    });
    app.delete(`${base}/roster/:userId/leave/:leaveId`, requireAdmin, async (req, res) => {
      const userId = uuidOr404(req.params.userId, CALENDAR_MSG.leaveNotFound);
      const leaveId = uuidOr404(req.params.leaveId, CALENDAR_MSG.leaveNotFound);
      await calendar.removeLeave(userId, leaveId);
      res.status(204).end();
    });

    app.get(`${base}/blocks`, requireAdmin, async (_req, res) => {
      res.json(await calendar.blocks());
    });
    app.post(`${base}/blocks`, requireAdmin, async (req, res) => {
      const body = parseOr400(calendarBlockSchema, req.body ?? {});
      res.status(201).json(await calendar.addBlock(body, req.identity!));
    });
    app.delete(`${base}/blocks/:id`, requireAdmin, async (req, res) => {
      await calendar.removeBlock(uuidOr404(req.params.id, CALENDAR_MSG.blockNotFound), req.identity!);
      res.status(204).end();
    });

    app.get(`${base}/holidays`, requireAdmin, async (req, res) => {
      const raw = req.query.year;
      let year: number | undefined;
      if (raw !== undefined) {
        year = Number(raw);
        if (typeof raw !== 'string' || !/^\d{4}$/.test(raw) || year < 2000 || year > 2100)
          throw badRequest('year must be a year from 2000 to 2100', undefined, 'invalid_year');
      }
      res.json(await calendar.holidays(year));
    });
    app.put(`${base}/holidays/:date/open`, requireAdmin, async (req, res) => {
      const { reason } = parseOr400(holidayOpenSchema, req.body ?? {});
      res.json(await calendar.setHolidayOpen(dateOr400(req.params.date), true, reason, req.identity!));
    });
    app.delete(`${base}/holidays/:date/open`, requireAdmin, async (req, res) => {
      res.json(await calendar.setHolidayOpen(dateOr400(req.params.date), false, undefined, req.identity!));
    });

    app.get(`${base}/capacity`, requireAdmin, async (req, res) => {
      res.json(await calendar.capacity(dateOr400(req.query.date)));
    });
    app.get(`${base}/jobs/:jobId/technician-suggestion`, requireAdmin, async (req, res) => {
      const jobId = uuidOr404(req.params.jobId, 'No slot reservation for this job');
      res.json(await calendar.suggestionForJob(jobId));
    });
  };
}
