import pino from 'pino';
import { errorFields, errorMessage, noopLogger, type Logger } from './logger';

describe('logger', () => {
  it('pino satisfies the Logger interface (checked by tsc) and works at run time', () => {
    const lines: string[] = [];
    const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    logger.child({ correlationId: 'abc' }).info({ a: 1 }, 'hello');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ correlationId: 'abc', a: 1, msg: 'hello' });
  });

  it('noopLogger and helpers', () => {
    expect(noopLogger.child({}).info({}, 'x')).toBeUndefined();
    expect(errorFields(new TypeError('bad'))).toMatchObject({ err: { name: 'TypeError', message: 'bad' } });
    expect(errorFields('text')).toEqual({ err: { message: 'text' } });
    expect(errorMessage(new Error('x'.repeat(2000)), 50)).toHaveLength(50);
  });
});
