import { Router } from 'express';
import { formatAud } from '@tyres/kernel';
import { rateLabel, rateOfPayment } from '../domain/pay-invoice';
import type { InvoicePay } from '../app/invoice-pay';
import { centsOf, moneyString } from '../domain/money';
import { TEST_CARDS_HELP } from '../domain/test-cards';

const TEST_MODE_LABEL = 'TEST MODE - no real payment will be taken.';

/**
 * "Pay now" (issue 18, item 4): the public page of an invoice's pay link. Public behind the gateway (rate-limited per
 * client); the token is the capability, and an unknown one is a 404 that does not say why.
 */
export function payInvoiceRoutes(pay: InvoicePay): Router {
  const r = Router();

  r.get('/:token', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await pay.summary(req.params.token));
  });

  r.post('/:token/payment-intent', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const { payment, invoiceNumber } = await pay.startPayment(req.params.token);
    const mode = payment.mode as 'live' | 'test';
    // The rate stored with the payment: the one its amounts were computed at.
    const rate = rateLabel(rateOfPayment(payment));
    const message = `A card surcharge of ${rate} (${formatAud(centsOf(payment.surchargeAmount))}) applies to card payments.`;
    res.json({
      clientSecret: payment.clientSecret,
      invoiceNumber,
      originalAmount: moneyString(payment.originalAmount),
      surchargeRate: rate,
      surchargeAmount: moneyString(payment.surchargeAmount),
      totalAmount: moneyString(payment.totalAmount),
      message: mode === 'test' ? `${TEST_MODE_LABEL} ${message} ${TEST_CARDS_HELP}` : message,
      paymentIntentId: payment.providerIntentId,
      currency: 'AUD',
      mode,
      testMode: mode === 'test',
    });
  });

  return r;
}
