import { useMemo } from 'react';
import { useToast } from '@tyres/platform';

/**
 * Toasts the dashboard's way (spec section 8): a success toast confirms each action. A failed mutation's toast is
 * raised by the mutation cache (api/mutation-toasts.ts, from the mutation's meta), not here.
 */
export function useNotify() {
  const { toast } = useToast();
  return useMemo(
    () => ({
      success: (title: string, description?: string) => toast({ title, description }),
      /** A destructive toast with a fixed message (client-side validation). */
      invalid: (title: string, description: string) => toast({ title, description, variant: 'destructive' }),
    }),
    [toast],
  );
}
