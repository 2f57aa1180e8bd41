export * from './money';
export * from './calendar';
export * from './booking';
export * from './pricing';
export * from './vocabulary';
export * from './cancellation';
export * from './holidays';
export * from './emergency';
