// Public site remote: exposes ./App (its own routes) to the shell. Served by the gateway under
// /remotes/public/ (remoteEntry.js and mf-manifest.json keep stable names; chunks are content-hashed).
//
// Budget (frontends/README.md, "Public site budget"): the landing page must not pull antd (never used here:
// the booking dialog and checkout are plain React + react-hook-form) nor the whole shared react-router (this
// remote bundles its own tree-shaken copy and renders its own BrowserRouter).
const { createConfig, sharedSingletons } = require('../platform/webpack/common');
const pkg = require('./package.json');

module.exports = (_env, argv) =>
  createConfig({
    dir: __dirname,
    mode: argv.mode === 'development' ? 'development' : 'production',
    publicPath: process.env.PUBLIC_REMOTE_PUBLIC_PATH || '/remotes/public/',
    federation: {
      name: 'tyres_public',
      filename: 'remoteEntry.js',
      exposes: { './App': './src/App.tsx' },
      manifest: { fileName: 'mf-manifest.json' },
      shared: sharedSingletons(pkg, { exclude: ['antd', 'react-router-dom'] }),
      // This remote loads no remotes and needs no manifest snapshots itself (the shell resolves the
      // manifests): leave that code out of remoteEntry.js, which every public page evaluates.
      experiments: { optimization: { disableRemote: true, disableSnapshot: true, target: 'web' } },
    },
  });
