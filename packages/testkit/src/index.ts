export {
  getDatabaseUrl,
  getAmqpUrl,
  getRedisUrl,
  resolveService,
  dockerAvailable,
  workerState,
  forgetWorkerState,
  type Service,
  type ResolvedUrl,
} from './infra';
export {
  createTestDatabase,
  createTemplateDatabase,
  dropStaleTestDatabases,
  databaseUrl,
  type TestDatabase,
  type TemplateDatabase,
} from './postgres';
export {
  uniquePrefix,
  conventionalNames,
  createRabbitAdmin,
  createRabbitAdmin as rabbitAdmin,
  type RabbitAdmin,
} from './rabbit';
export { rabbitmqctlAvailable, closeConnectionsNamed } from './rabbitmqctl';
export { createRedisClient, deleteRedisKeysByPrefix } from './redis';
export { waitFor, waitForExpect, sleep, type WaitForOptions } from './wait';
export { startTcpProxy, type TcpProxy } from './proxy';
export { migratedServiceDatabase, migrationsFingerprint } from './service-database';
export { identityKeyPair } from './identity';
export {
  startStripeFake,
  parseStripeForm,
  type StripeFake,
  type FakeEvent,
  type FakeRefund,
  type FakePaymentIntent,
  type InjectedFailure,
  type WebhookSigner,
} from './stripe-fake';
