import {
  createContext,
  Fragment,
  useContext,
  useEffect,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { toast as showToast } from '@tyres/platform';
import { afterStatusChangesOf, invalidateJobs, invalidateSlots } from '../api/jobs';
import { useDashboard } from '../context';
import { NOTIFICATION_AUTO_DISMISS_MS, NOTIFICATIONS_VISIBLE } from '../lib/constants';
import { formatShortDate } from '../lib/dates';
import { serviceLabel } from '../lib/format';
import { cents, formatMoney } from '../lib/money';
import {
  NotificationConnection,
  notificationsUrl,
  type BookingChange,
  type ConnectionStatus,
  type SmsDelivery,
} from './connection';
import { notificationsReducer, type NotificationItem } from './list';

/**
 * The toast for what became of a customer SMS: "SMS sent" only when notify says a provider accepted it. notify's own
 * text is shown when it says more than the title (a failure carries its reason: "SMS not sent: ...").
 */
export function smsDeliveryToast(delivery: SmsDelivery): {
  title: string;
  description: string;
  failed: boolean;
} {
  const more = (title: string, otherwise: string) =>
    delivery.message && delivery.message !== title ? delivery.message : otherwise;
  switch (delivery.status) {
    case 'sent':
      return {
        title: 'SMS sent',
        description: more('SMS sent', 'The SMS provider accepted the message to the customer.'),
        failed: false,
      };
    case 'recorded':
      return {
        title: 'SMS recorded (no provider configured)',
        description: more(
          'SMS recorded (no provider configured)',
          'Nobody received it: no SMS provider is set up, so the message was only recorded.',
        ),
        failed: false,
      };
    case 'failed':
      return {
        title: 'SMS not sent',
        description:
          delivery.message.replace(/^SMS not sent:?\s*/i, '') || 'The customer SMS could not be sent.',
        failed: true,
      };
  }
}

const WHO = { customer: 'the customer', staff: 'staff' } as const;

/** "phone, notes and vehicle details". */
function listWords(items: string[]): string {
  const words = items.map((c) => (c === 'vehicle' ? 'vehicle details' : c === 'phone' ? 'phone number' : c));
  return words.length <= 1 ? (words[0] ?? 'details') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * The notice for a booking changed after it was made (issue 18): "Booking JOB-000123 rescheduled by the customer",
 * with the new slot, the money terms of a cancellation, or what the customer corrected.
 */
export function bookingChangeNotice(change: BookingChange): { title: string; description: string } {
  const booking = `Booking ${change.jobNumber || '(unknown job)'}`;
  switch (change.kind) {
    case 'rescheduled':
      return {
        title: `${booking} rescheduled by ${WHO[change.by]}`,
        description:
          `Now ${formatShortDate(change.to.scheduledDate)}, ${change.to.timeSlot}` +
          (change.from
            ? ` (was ${formatShortDate(change.from.scheduledDate)}, ${change.from.timeSlot}).`
            : '.'),
      };
    case 'cancelled': {
      if (change.noShow)
        return {
          title: `Booking ${change.jobNumber || '(unknown job)'}: the customer was a no-show`,
          description:
            change.fee && cents(change.fee) > 0n && !change.feeWaived
              ? `Marked by staff. Charged in full: ${formatMoney(change.fee)}.`
              : 'Marked by staff. No charge.',
        };
      const money: string[] = ['Its time slot is free again.'];
      if (change.refund && cents(change.refund) > 0n) money.push(`Refund: ${formatMoney(change.refund)}.`);
      if (change.fee && cents(change.fee) > 0n)
        money.push(`Fee: ${formatMoney(change.fee)}${change.feeWaived ? ' (waived)' : ''}.`);
      return { title: `${booking} cancelled by ${WHO[change.by]}`, description: money.join(' ') };
    }
    case 'updated':
      return {
        title: `${booking} updated by the customer`,
        description: `The customer corrected their ${listWords(change.changed)}.`,
      };
  }
}

/** When the job lists are refreshed after a live message (ms). */
const REFRESH_DELAYS_MS = [0, 1500, 4000];

interface NotificationState {
  status: ConnectionStatus;
  reconnect: () => void;
}

const StatusContext = createContext<NotificationState>({
  status: 'disconnected',
  reconnect: () => undefined,
});

/** Live connection state for the header's indicator. */
export function useNotificationStatus(): NotificationState {
  return useContext(StatusContext);
}

function NotificationCard({
  item,
  onView,
  onDismiss,
}: {
  item: NotificationItem;
  onView: () => void;
  onDismiss: () => void;
}) {
  return (
    <li className="dash-notice" aria-labelledby={`notice-${item.id}`}>
      <div className="dash-notice__body">
        <strong id={`notice-${item.id}`} className="dash-notice__title">
          {item.kind === 'job_assigned' ? 'Job Assigned' : 'New Booking'}
          {item.jobNumber ? `: ${item.jobNumber}` : ''}
        </strong>
        <span className="dash-capitalize">{serviceLabel(item.serviceType)}</span>
        <span className="dash-muted">
          {[item.suburb, item.scheduledDate ? formatShortDate(item.scheduledDate) : null, item.timeSlot]
            .filter(Boolean)
            .map((part, i) => (
              // Each part stays on one line ("10-12 AM" never splits); the line breaks between parts.
              <Fragment key={i}>
                {i > 0 && ' · '}
                <span className="dash-nowrap">{part}</span>
              </Fragment>
            ))}
        </span>
      </div>
      <div className="dash-notice__actions">
        <Button size="small" type="primary" onClick={onView}>
          View
        </Button>
        <Button
          size="small"
          type="text"
          className="dash-notice__dismiss"
          onClick={onDismiss}
          aria-label={`Dismiss notification for ${item.jobNumber || 'new booking'}`}
        >
          ✕
        </Button>
      </div>
    </li>
  );
}

/**
 * Booking notification popup (top right) and the WebSocket behind it. Newest first, 10 kept, 3 shown unless
 * expanded; the first is dismissed after 10 s; each new booking refreshes the job lists and slots.
 */
export function NotificationCenter({ children }: { children: ReactNode }) {
  const { homePath } = useDashboard();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [items, dispatch] = useReducer(notificationsReducer, []);
  const [expanded, setExpanded] = useState(false);
  const [status, setStatus] = useState<ConnectionStatus>('connecting');
  const connection = useRef<NotificationConnection | null>(null);

  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const cancels = new Set<() => void>();
    // The jobs service learns of a booking from the same event as notify, so the popup can be a moment ahead of the
    // job lists: refresh now, and again shortly after, until the lists have caught up.
    const refreshLists = () => {
      for (const delay of REFRESH_DELAYS_MS) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void invalidateJobs(queryClient);
          void invalidateSlots(queryClient);
        }, delay);
        timers.add(timer);
      }
    };
    // The live feed is at most once: what happened while the connection was down is never sent again. So when it
    // comes back (live after connecting once already), the lists are refetched to catch up.
    let wasLive = false;
    const conn = new NotificationConnection({
      url: notificationsUrl(window.location),
      onStatus: (next) => {
        setStatus(next);
        if (next !== 'live') return;
        if (wasLive) refreshLists();
        wasLive = true;
      },
      onNotification: (notification) => {
        dispatch({ type: 'add', notification, receivedAt: Date.now() });
        refreshLists();
      },
      onListChange: refreshLists,
      // A booking changed after it was made: the lists, the slots and the open job (its detail and the booking's
      // cancellation record) are refetched, and staff are told what happened.
      onBookingChange: (change) => {
        refreshLists();
        void queryClient.invalidateQueries({ queryKey: ['/api/dashboard/bookings', change.jobId] });
        const notice = bookingChangeNotice(change);
        showToast({ title: notice.title, description: notice.description });
      },
      onSmsDelivery: (delivery) => {
        const toast = smsDeliveryToast(delivery);
        // Shown after the status change that asked for the SMS has raised its own toast (see afterStatusChangesOf).
        const cancel = afterStatusChangesOf(queryClient, delivery.jobId, () => {
          cancels.delete(cancel);
          showToast({
            title: toast.title,
            description: toast.description,
            variant: toast.failed ? 'destructive' : 'default',
          });
        });
        cancels.add(cancel);
      },
    });
    connection.current = conn;
    conn.start();
    return () => {
      conn.stop();
      connection.current = null;
      for (const timer of timers) clearTimeout(timer);
      for (const cancel of cancels) cancel();
    };
  }, [queryClient]);

  // The first (newest) notification goes away after 10 s; the next one then gets its own 10 s.
  const firstId = items[0]?.id;
  useEffect(() => {
    if (!firstId) return;
    const timer = setTimeout(() => dispatch({ type: 'dismiss', id: firstId }), NOTIFICATION_AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [firstId]);

  // "Show all" folds away once the list is short again (adjusted while rendering rather than in an effect).
  if (expanded && items.length <= NOTIFICATIONS_VISIBLE) setExpanded(false);

  const visible = expanded ? items : items.slice(0, NOTIFICATIONS_VISIBLE);
  const hidden = items.length - visible.length;

  return (
    <StatusContext.Provider value={{ status, reconnect: () => connection.current?.restart() }}>
      {children}
      <section className="dash-notices" aria-label="New booking notifications" aria-live="polite">
        {items.length > 0 && (
          <>
            <ul className="dash-notices__list">
              {visible.map((item) => (
                <NotificationCard
                  key={item.id}
                  item={item}
                  onView={() => {
                    dispatch({ type: 'dismiss', id: item.id });
                    navigate(`${homePath}?tab=jobs&job=${encodeURIComponent(item.id)}`);
                  }}
                  onDismiss={() => dispatch({ type: 'dismiss', id: item.id })}
                />
              ))}
            </ul>
            <div className="dash-notices__more">
              {(hidden > 0 || expanded) && (
                <Button
                  size="small"
                  type="link"
                  onClick={() => setExpanded((v) => !v)}
                  aria-expanded={expanded}
                >
                  {expanded ? 'Show less' : `Show ${hidden} more`}
                </Button>
              )}
              {items.length > 1 && (
                <Button size="small" type="link" onClick={() => dispatch({ type: 'clear' })}>
                  Dismiss all
                </Button>
              )}
            </div>
          </>
        )}
      </section>
    </StatusContext.Provider>
  );
}
