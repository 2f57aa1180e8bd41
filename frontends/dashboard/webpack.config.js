// Staff dashboard remote: exposes ./App (login + dashboard routes) to the shell. Served under
// /remotes/dashboard/ (remoteEntry.js and mf-manifest.json keep stable names; chunks are content-hashed).
const { createConfig } = require('../platform/webpack/common');

module.exports = (_env, argv) => {
  const config = createConfig({
    dir: __dirname,
    mode: argv.mode === 'development' ? 'development' : 'production',
    publicPath: process.env.DASHBOARD_REMOTE_PUBLIC_PATH || '/remotes/dashboard/',
    federation: {
      name: 'tyres_dashboard',
      filename: 'remoteEntry.js',
      exposes: { './App': './src/App.tsx' },
      manifest: { fileName: 'mf-manifest.json' },
    },
  });
  // Tabs are lazy chunks. Code two or more of them use (the date picker glue, the form libraries) goes into a
  // shared async chunk once it passes 4 KB instead of being copied into each tab (webpack's default is 20 KB).
  config.optimization.splitChunks = { chunks: 'async', minSize: 4000 };
  return config;
};
