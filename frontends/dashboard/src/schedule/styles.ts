/**
 * The schedule's own rules, rendered once by ScheduleViews. Colours are the dashboard palette's variables
 * (theme.ts → `--dash-*`), never literals, so contrast is decided in one place.
 */
export const SCHEDULE_CSS = `
.sched-toolbar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:8px 0 12px}
.sched-toolbar__range{font-weight:600;margin:0 8px;color:var(--dash-text)}
.sched-scroll{overflow-x:auto;border:1px solid var(--dash-border);border-radius:8px}
.sched-scroll:focus-visible{outline:2px solid var(--dash-primary);outline-offset:2px}
.sched-grid{border-collapse:collapse;width:100%;min-width:900px;table-layout:fixed}
.sched-grid--day{min-width:720px}
.sched-grid th,.sched-grid td{border:1px solid var(--dash-border);vertical-align:top;padding:4px}
.sched-grid thead th{background:var(--dash-surface-subtle);color:var(--dash-text-strong);font-weight:600;text-align:left;padding:6px}
.sched-grid thead th.sched-today{background:var(--dash-primary-soft);color:var(--dash-primary-dark)}
.sched-grid tbody th{width:120px;overflow-wrap:anywhere;background:var(--dash-surface-subtle);color:var(--dash-text);text-align:left;font-weight:600;padding:6px}
.sched-grid__lane-col{width:120px}
.sched-zone{min-height:44px;border-radius:6px;padding:2px;margin-bottom:4px;border:1px dashed transparent}
.sched-zone:last-child{margin-bottom:0}
.sched-zone--over{border-color:var(--dash-primary);background:var(--dash-primary-soft)}
.sched-zone__label{display:block;font-size:11px;color:var(--dash-text-muted);margin:0 2px 2px}
.sched-job{border:1px solid var(--dash-border-strong);border-left:4px solid var(--dash-primary);border-radius:6px;background:var(--dash-surface);padding:4px 6px;margin-bottom:4px;font-size:12px;line-height:1.35}
.sched-job[draggable=true]{cursor:grab}
.sched-job--done{border-left-color:var(--dash-text-faint);background:var(--dash-surface-subtle)}
.sched-job--moving{opacity:.6}
.sched-job__head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:2px 4px}
.sched-job__num{padding:0;height:auto;font-size:12px;font-weight:600}
.sched-job__line{display:block;color:var(--dash-text-strong);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.sched-job__foot{display:flex;justify-content:space-between;align-items:center;gap:4px;margin-top:2px}
.sched-job .dash-status-tag{margin:0;font-size:11px;line-height:18px;padding:0 4px}
.sched-sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.sched-heading{margin:4px 0 10px;font-size:15px;font-weight:600;color:var(--dash-text)}
.sched-note{color:var(--dash-text-muted);margin:6px 0}
.sched-visits{list-style:none;margin:0;padding:0;display:grid;gap:12px}
.sched-visit{border:1px solid var(--dash-border);border-radius:12px;padding:14px;background:var(--dash-surface)}
.sched-visit__head{display:flex;justify-content:space-between;align-items:flex-start;gap:8px}
.sched-visit__title{margin:0;font-size:16px;color:var(--dash-text)}
.sched-visit__slot{display:block;font-size:13px;color:var(--dash-text-secondary);font-weight:600}
.sched-visit__links{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:10px 0}
.sched-visit__link{display:flex;align-items:center;justify-content:center;min-height:44px;border-radius:8px;border:1px solid var(--dash-primary-border);background:var(--dash-primary-soft);color:var(--dash-primary-dark);font-weight:600;text-decoration:none;text-align:center;padding:6px}
.sched-visit__link:focus-visible{outline:2px solid var(--dash-primary);outline-offset:2px}
.sched-visit__address{margin:6px 0 0;color:var(--dash-text)}
.sched-visit dl{margin:0;display:grid;gap:4px}
.sched-visit dl div{display:flex;gap:8px}
.sched-visit dt{min-width:72px;color:var(--dash-text-muted)}
.sched-visit dd{margin:0;color:var(--dash-text)}
.sched-visit__foot{display:flex;flex-wrap:wrap;gap:8px;margin-top:10px;align-items:center}
`;
