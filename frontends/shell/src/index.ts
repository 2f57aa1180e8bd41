// Entry of the shell. Shared singletons (react, antd, ...) may only be used after the federation
// runtime has set up sharing, hence the dynamic import of ./bootstrap (the async boundary).
import { captureEarlyIntents } from './early-intent';
import { watchHistory } from './location';
import { registerAppRemotes } from './remotes';
import { loadRuntimeConfig } from './runtime-config';

function showFatalError(error: unknown): void {
  console.error('[shell] failed to start', error);
  const root = document.getElementById('root');
  if (!root) return;
  root.innerHTML = `
    <div class="shell-fatal" role="alert">
      <h1>Sorry, the site couldn't be loaded</h1>
      <p>Please check your internet connection and try again.</p>
      <button type="button">Retry</button>
    </div>`;
  root.querySelector('button')?.addEventListener('click', () => window.location.reload());
}

watchHistory();
captureEarlyIntents();
loadRuntimeConfig()
  .then(async (config) => {
    registerAppRemotes(config);
    const { mount } = await import('./bootstrap');
    mount(config);
  })
  .catch(showFatalError);
