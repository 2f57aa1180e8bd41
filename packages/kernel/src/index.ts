export * from './money';
export * from './calendar';
export * from './booking';
export * from './pricing';
