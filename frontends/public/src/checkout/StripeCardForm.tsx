import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { loadStripe } from '@stripe/stripe-js';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useToast } from '@tyres/platform/toast';
import { BRAND_PRIMARY } from '@tyres/platform/theme';
import { formatMoney } from '../site/format';
import { PAYMENT_MESSAGES, successUrl, type PaymentIntentAnswer } from './api';

/** Where a payment goes when it succeeds: the checkout's success page unless the caller says (the invoice pay page). */
export interface PaidHandling {
  /** Called instead of navigating to the checkout's success page. */
  onPaid?: () => void;
  /** Where 3-D Secure and redirect-based methods come back to (default: the checkout's success page). */
  returnPath?: string;
}

function PayButton({
  token,
  intent,
  onPaid,
  returnPath,
}: { token: string; intent: PaymentIntentAnswer } & PaidHandling) {
  const stripe = useStripe();
  const elements = useElements();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [paying, setPaying] = useState(false);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || paying) return;
    setPaying(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        // 3-D Secure and redirect-based methods come back here (spec section 7).
        confirmParams: { return_url: new URL(returnPath ?? successUrl(token), window.location.origin).href },
        redirect: 'if_required',
      });
      if (error) {
        toast({
          title: PAYMENT_MESSAGES.failedTitle,
          description: error.message ?? PAYMENT_MESSAGES.error,
          variant: 'destructive',
        });
      } else if (
        paymentIntent &&
        (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing')
      ) {
        if (onPaid) onPaid();
        else navigate(successUrl(token));
      } else {
        toast({
          title: PAYMENT_MESSAGES.errorTitle,
          description: PAYMENT_MESSAGES.error,
          variant: 'destructive',
        });
      }
    } catch {
      toast({
        title: PAYMENT_MESSAGES.errorTitle,
        description: PAYMENT_MESSAGES.error,
        variant: 'destructive',
      });
    } finally {
      setPaying(false);
    }
  };

  return (
    <form className="co-card" onSubmit={pay}>
      <PaymentElement options={{ layout: 'tabs' }} />
      <button
        type="submit"
        className="pub-btn pub-btn--primary pub-btn--lg pub-btn--block co-pay"
        disabled={!stripe || !elements || paying}
      >
        {paying ? 'Processing…' : `Pay ${formatMoney(intent.totalAmount)}`}
      </button>
    </form>
  );
}

/** Stripe Elements card form (a publishable key is configured and billing runs live). */
export default function StripeCardForm({
  publishableKey,
  token,
  intent,
  onPaid,
  returnPath,
}: {
  publishableKey: string;
  token: string;
  intent: PaymentIntentAnswer;
} & PaidHandling) {
  const stripe = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements
      stripe={stripe}
      options={{
        clientSecret: intent.clientSecret,
        appearance: { theme: 'stripe', variables: { colorPrimary: BRAND_PRIMARY, borderRadius: '10px' } },
      }}
    >
      <PayButton token={token} intent={intent} onPaid={onPaid} returnPath={returnPath} />
    </Elements>
  );
}
