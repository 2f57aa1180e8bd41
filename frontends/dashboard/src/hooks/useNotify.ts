import { useMemo } from 'react';
import { errorMessage, useToast } from '@tyres/platform';

/**
 * Toasts the dashboard's way (spec section 8): a success toast confirms each action; a failure is a destructive
 * toast with the server's message when it sent one, else the screen's fallback text.
 */
export function useNotify() {
  const { toast } = useToast();
  return useMemo(
    () => ({
      success: (title: string, description?: string) => toast({ title, description }),
      failure: (title: string, error: unknown, fallback: string) =>
        toast({ title, description: errorMessage(error, fallback), variant: 'destructive' }),
      /** A destructive toast with a fixed message (client-side validation). */
      invalid: (title: string, description: string) => toast({ title, description, variant: 'destructive' }),
    }),
    [toast],
  );
}
