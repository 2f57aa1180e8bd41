import type { BookingNotification } from '../api/types';
import { NOTIFICATIONS_MAX } from '../lib/constants';

/** The popup's list: newest first, at most 10 kept, one entry per booking. */
export type NotificationItem = BookingNotification['data'] & {
  receivedAt: number;
  kind: BookingNotification['type'];
};

export type NotificationAction =
  | { type: 'add'; notification: BookingNotification; receivedAt: number }
  | { type: 'dismiss'; id: string }
  | { type: 'clear' };

export function notificationsReducer(
  state: NotificationItem[],
  action: NotificationAction,
): NotificationItem[] {
  switch (action.type) {
    case 'add': {
      const item = {
        ...action.notification.data,
        receivedAt: action.receivedAt,
        kind: action.notification.type,
      };
      return [item, ...state.filter((n) => n.id !== item.id)].slice(0, NOTIFICATIONS_MAX);
    }
    case 'dismiss':
      return state.filter((n) => n.id !== action.id);
    case 'clear':
      return [];
  }
}
