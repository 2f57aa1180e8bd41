import { useEffect, useState } from 'react';
import { addDays, perthInstant, perthToday } from '@tyres/kernel';

/**
 * Today's Perth date that rolls over at Perth midnight while the app stays open (a technician's phone left on
 * overnight): a timer set for the next Perth midnight, and a re-check whenever the page becomes visible again
 * (a sleeping phone may hold timers back). Views key their queries on the date, so a new day refetches.
 * The calendar itself is the kernel's (perthToday, perthInstant, addDays).
 */
export function usePerthToday(): string {
  const [today, setToday] = useState(() => perthToday());
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const check = () => setToday(perthToday());
    const untilMidnight = perthInstant(addDays(today, 1), '00:00').getTime() - Date.now();
    // A second past midnight; a timer that fires early re-arms (tick) instead of stopping.
    const timer = setTimeout(
      () => {
        check();
        setTick((n) => n + 1);
      },
      Math.max(untilMidnight, 0) + 1000,
    );
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', check);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', check);
    };
  }, [today, tick]);
  return today;
}
