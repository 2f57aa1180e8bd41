// Shell (Module Federation host). Remotes are NOT declared here: their manifest URLs come from the
// runtime config (/config.json, window.__APP_CONFIG__) and are registered with the MF runtime at boot.
const fs = require('node:fs');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { createConfig } = require('../platform/webpack/common');

const DEFAULTS_FILE = path.join(__dirname, 'src/config.defaults.json');

/** Emits dist/config.json (the defaults); deployments replace that file, not the bundle. */
class EmitRuntimeConfigPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('EmitRuntimeConfigPlugin', (compilation) => {
      compilation.fileDependencies.add(DEFAULTS_FILE);
      compilation.hooks.processAssets.tap(
        { name: 'EmitRuntimeConfigPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const json = JSON.parse(fs.readFileSync(DEFAULTS_FILE, 'utf8'));
          // SITE_CONFIG: a deployment's config.json merged over the defaults at build time, so the emitted
          // config.json and the prerendered pages (phone, ABN, site URL) are the production ones.
          if (process.env.SITE_CONFIG) {
            const site = JSON.parse(fs.readFileSync(path.resolve(process.env.SITE_CONFIG), 'utf8'));
            for (const [key, value] of Object.entries(site)) {
              const both = value && typeof value === 'object' && !Array.isArray(value) && json[key];
              json[key] = both ? { ...json[key], ...value } : value;
            }
          }
          compilation.emitAsset('config.json', new sources.RawSource(`${JSON.stringify(json, null, 2)}\n`));
        },
      );
    });
  }
}

module.exports = (_env, argv) => {
  const mode = argv.mode === 'development' ? 'development' : 'production';
  return createConfig({
    dir: __dirname,
    mode,
    entry: { main: './src/index.ts' },
    // Absolute, not 'auto': index.html is the SPA fallback for deep links such as /dashboard/login,
    // so its script URLs must not be relative to the page.
    publicPath: process.env.SHELL_PUBLIC_PATH || '/',
    federation: {
      name: 'shell',
      remotes: {},
      manifest: false,
      // Browser only: leave the federation runtime's Node code paths out of main.js.
      experiments: { optimization: { target: 'web' } },
    },
    plugins: [
      // index.html is replaced by the prerendered landing page (scripts/prerender.mjs); app.html stays the
      // neutral SPA shell that the server answers for every other client-side route.
      ...['index.html', 'app.html'].map(
        (filename) =>
          new HtmlWebpackPlugin({
            filename,
            template: './src/index.html',
            scriptLoading: 'defer',
            minify: mode === 'production' && {
              collapseWhitespace: true,
              removeComments: true,
              minifyCSS: true,
            },
          }),
      ),
      new EmitRuntimeConfigPlugin(),
    ],
  });
};
