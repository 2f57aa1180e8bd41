// Imported by the entry before sharing is initialised: must not import react or any other shared module.
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemoteAppModule } from '@tyres/platform';
import type { AppConfig, AppName } from './runtime-config';

/**
 * Container names (the `name` each remote is built with). The shell refers to them by the aliases
 * `public` and `dashboard`; `public` itself is a reserved word in strict-mode JavaScript, so it is not
 * used as a container global.
 */
const CONTAINERS: Record<AppName, string> = {
  public: 'tyres_public',
  dashboard: 'tyres_dashboard',
};

export function registerAppRemotes(config: AppConfig): void {
  registerRemotes(
    (Object.keys(CONTAINERS) as AppName[]).map((app) => ({
      name: CONTAINERS[app],
      alias: app,
      entry: config.remotes[app],
    })),
  );
}

export async function loadRemoteApp(app: AppName): Promise<RemoteAppModule> {
  const mod = await loadRemote<RemoteAppModule>(`${app}/App`);
  if (!mod || mod.default == null) {
    throw new Error(`Remote "${app}" did not provide ./App`);
  }
  return mod;
}
