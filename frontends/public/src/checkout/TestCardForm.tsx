import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '@tyres/platform/api';
import { useToast } from '@tyres/platform/toast';
import { TextField } from '../booking/fields';
import { formatMoney } from '../site/format';
import { confirmTestPayment, PAYMENT_MESSAGES, successUrl, type PaymentIntentAnswer } from './api';

const formatCard = (value: string) =>
  value
    .replace(/\D+/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

const formatExpiry = (value: string) => {
  const digits = value.replace(/\D+/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
};

/**
 * Checkout without Stripe keys: a clearly labelled test mode. The card number goes to billing's test-mode
 * confirmation, which takes Stripe's own test card numbers and runs the same server path (events, states) as a
 * real payment. No real card is ever charged.
 */
export function TestCardForm({
  token,
  intent,
  onPaid,
}: {
  token: string;
  intent: PaymentIntentAnswer;
  /** Called instead of navigating to the checkout's success page (the invoice pay page). */
  onPaid?: () => void;
}) {
  const { toast } = useToast();
  const navigate = useNavigate();
  const [card, setCard] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<{ card?: string; expiry?: string; cvc?: string }>({});
  const [paying, setPaying] = useState(false);

  const validate = () => {
    const next: typeof errors = {};
    const digits = card.replace(/\D+/g, '');
    if (digits.length < 12) next.card = 'Please enter a card number';
    const m = /^(\d{2})\/(\d{2})$/.exec(expiry);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) next.expiry = 'Please enter the expiry date as MM/YY';
    if (!/^\d{3,4}$/.test(cvc)) next.cvc = 'Please enter the 3 or 4 digit security code';
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (paying || !validate()) return;
    setPaying(true);
    try {
      await confirmTestPayment(intent.clientSecret, card.replace(/\D+/g, ''));
      if (onPaid) onPaid();
      else navigate(successUrl(token));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 402 || error.status === 400)) {
        toast({
          title: PAYMENT_MESSAGES.failedTitle,
          description: error.serverMessage ?? PAYMENT_MESSAGES.error,
          variant: 'destructive',
        });
      } else {
        toast({
          title: PAYMENT_MESSAGES.errorTitle,
          description: PAYMENT_MESSAGES.error,
          variant: 'destructive',
        });
      }
    } finally {
      setPaying(false);
    }
  };

  return (
    <form className="co-card" noValidate onSubmit={pay} aria-describedby="co-test-mode">
      <div id="co-test-mode" className="co-test-banner" role="note">
        <p className="co-test-banner__title">TEST MODE – no real payment will be taken</p>
        <p className="co-test-banner__text">
          Online payments are not connected yet. Use a Stripe test card: 4242 4242 4242 4242 succeeds, 4000
          0000 0000 0002 is declined. Any future expiry date and any 3-digit code.
        </p>
      </div>
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        value={card}
        error={errors.card}
        onChange={(e) => setCard(formatCard(e.target.value))}
      />
      <div className="bk-row">
        <TextField
          label="Expiry (MM/YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="12/30"
          value={expiry}
          error={errors.expiry}
          onChange={(e) => setExpiry(formatExpiry(e.target.value))}
        />
        <TextField
          label="Security code (CVC)"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={cvc}
          error={errors.cvc}
          onChange={(e) => setCvc(e.target.value.replace(/\D+/g, '').slice(0, 4))}
        />
      </div>
      <button
        type="submit"
        className="pub-btn pub-btn--primary pub-btn--lg pub-btn--block co-pay"
        disabled={paying}
      >
        {paying ? 'Processing…' : `Pay ${formatMoney(intent.totalAmount)} (test)`}
      </button>
    </form>
  );
}
