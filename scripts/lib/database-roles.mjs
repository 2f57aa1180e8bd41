// The database roles of the services, named once (docs/migrations.md, "Database roles"). Used by the migrator
// (scripts/db-migrate.mjs: bootstrap, migrations as each schema's owner) and by the local stack
// (scripts/lib/stack.mjs: each service started with its own DATABASE_URL).
//
//   <prefix><service>_owner   NOLOGIN, owns the service's schema; migrations run as it
//   <prefix><service>_app     LOGIN, the service's DATABASE_URL; DML on its own schema only
//
// Roles belong to the whole Postgres cluster, not to one database: DATABASE_ROLE_PREFIX (default none) keeps the
// roles of two environments sharing a cluster apart (e.g. `staging_`), and lets tests make throwaway roles.

/** Where each service's password-bearing URL comes from, for the migrator: BOOKING_DATABASE_URL, ... */
export const databaseUrlVariable = (service) => `${service.toUpperCase()}_DATABASE_URL`;

/** The generated local password of a service's app role in .run/dev-secrets.json: BOOKING_DATABASE_PASSWORD, ... */
export const databasePasswordVariable = (service) => `${service.toUpperCase()}_DATABASE_PASSWORD`;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function rolePrefix(env = process.env) {
  const prefix = env.DATABASE_ROLE_PREFIX ?? '';
  if (prefix && !IDENTIFIER.test(prefix))
    throw new Error(
      `DATABASE_ROLE_PREFIX must be a lower-case identifier ([a-z_][a-z0-9_]*), got ${JSON.stringify(prefix)}.`,
    );
  return prefix;
}

export function roleNames(service, prefix = '') {
  const owner = `${prefix}${service}_owner`;
  const app = `${prefix}${service}_app`;
  for (const name of [owner, app])
    if (!IDENTIFIER.test(name) || name.length > 63)
      throw new Error(`Invalid role name ${name} (at most 63 characters, [a-z0-9_]).`);
  return { owner, app };
}

/** The administrator's URL with the service's app role and password: same server, database and parameters. */
export function appDatabaseUrl(adminUrl, service, password, prefix = '') {
  const url = new URL(adminUrl);
  url.username = roleNames(service, prefix).app;
  url.password = password ? encodeURIComponent(password) : '';
  return url.toString();
}

/**
 * The app role's password as the migrator should set it, from <SERVICE>_DATABASE_URL: `undefined` when the variable
 * is absent. Throws when the URL names another user than the service's app role (the roles are named by
 * convention, the Secret must match them).
 */
export function appPasswordFromEnv(env, service, prefix = '') {
  const variable = databaseUrlVariable(service);
  const value = env[variable];
  if (!value) return undefined;
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} is not a valid postgresql:// URL.`);
  }
  const expected = roleNames(service, prefix).app;
  const user = decodeURIComponent(url.username);
  if (user !== expected)
    throw new Error(`${variable} connects as "${user}"; the ${service} service's role is "${expected}".`);
  return url.password ? decodeURIComponent(url.password) : '';
}
