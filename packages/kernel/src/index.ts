export * from './money';
export * from './calendar';
