import { classifySmtpError, classifyTwilioError, errorText, PermanentDeliveryError } from './delivery-errors';

const restException = (status: number, code?: number) =>
  Object.assign(new Error('twilio says no'), { status, code });

describe('classifyTwilioError', () => {
  it.each([
    [restException(400, 21211), 'permanent'],
    [restException(400, 21614), 'permanent'],
    [restException(400, 21610), 'permanent'],
    [restException(404), 'permanent'],
    [restException(429, 20429), 'transient'],
    [restException(500), 'transient'],
    [restException(503), 'transient'],
    [restException(401, 20003), 'transient'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'transient'],
    [new PermanentDeliveryError('bad number'), 'permanent'],
    ['weird', 'transient'],
  ])('%s -> %s', (err, kind) => {
    expect(classifyTwilioError(err)).toBe(kind);
  });
});

describe('classifySmtpError', () => {
  const smtp = (code: string, responseCode?: number) =>
    Object.assign(new Error('smtp'), { code, responseCode });
  it.each([
    [smtp('EENVELOPE', 550), 'permanent'],
    [smtp('EENVELOPE', 553), 'permanent'],
    [smtp('EMESSAGE', 552), 'permanent'],
    [smtp('EENVELOPE'), 'permanent'],
    [smtp('EENVELOPE', 450), 'transient'],
    [smtp('EENVELOPE', 421), 'transient'],
    [smtp('EAUTH', 535), 'transient'],
    [smtp('ECONNECTION'), 'transient'],
    [smtp('ETIMEDOUT'), 'transient'],
  ])('%s -> %s', (err, kind) => {
    expect(classifySmtpError(err)).toBe(kind);
  });
});

describe('errorText', () => {
  it('adds the status and codes', () => {
    expect(errorText(restException(503, 20500))).toBe('twilio says no (HTTP 503, code 20500)');
    expect(
      errorText(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550, code: 'EENVELOPE' })),
    ).toBe('Mailbox unavailable (SMTP 550, code EENVELOPE)');
  });
});
