// Webpack settings shared by the shell and the remotes. Each front end's webpack.config.js calls
// createConfig() with its own entry, Module Federation options and plugins.
const path = require('node:path');
// (webpack is pinned to 5.106.x in the root overrides: @module-federation/enhanced 2.9 deep-imports files later versions moved.)
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

const PLATFORM_SRC = path.resolve(__dirname, '../src');
/** Plain shared data (the landing suburbs), compiled from source like the platform code. */
const REFERENCE_DATA_SRC = path.resolve(__dirname, '../../../packages/reference-data/src');
/** The business kernel (money and GST, the slot calendar): pure TypeScript, compiled from source too. */
const KERNEL_SRC = path.resolve(__dirname, '../../../packages/kernel/src');

/**
 * Singletons every front end shares (architecture 7, conventions "Front ends"). Versions come from
 * the front end's own package.json; all three declare the same ranges.
 *
 * `exclude` drops packages a front end does not take from the share scope: the public remote keeps its own
 * tree-shaken router and never loads antd (see frontends/README.md, "Public site budget").
 */
function sharedSingletons(pkg, { exclude = [] } = {}) {
  const deps = pkg.dependencies;
  const single = (version) => ({ singleton: true, requiredVersion: version });
  const all = {
    react: single(deps.react),
    'react/jsx-runtime': single(deps.react),
    'react-dom': single(deps['react-dom']),
    'react-dom/client': single(deps['react-dom']),
    antd: single(deps.antd),
    '@tanstack/react-query': single(deps['@tanstack/react-query']),
    'react-router-dom': single(deps['react-router-dom']),
  };
  for (const name of exclude) delete all[name];
  return all;
}

/**
 * Minify with SWC (through terser-webpack-plugin, webpack's own minimizer dependency): several times faster
 * than terser on the antd/react-dom vendor code every front end carries, with comparable output.
 * FRONTEND_MINIFIER=terser switches back.
 */
function swcMinimizer() {
  if (process.env.FRONTEND_MINIFIER === 'terser') return undefined;
  const TerserPlugin = require(
    require.resolve('terser-webpack-plugin', { paths: [path.dirname(require.resolve('webpack'))] }),
  );
  return new TerserPlugin({
    minify: TerserPlugin.swcMinify,
    terserOptions: { compress: { passes: 1 }, mangle: true },
  });
}

/**
 * Initial chunks get '[name].[contenthash].js'. Written as a function because the MF runtime module
 * (FederationRuntimeModule in @module-federation/enhanced 2.9) resolves the runtime chunk's filename
 * while that chunk is still being hashed, and webpack >= 5.107 refuses [contenthash] at that point.
 * Only the directory part matters there, so the unhashed name is an exact stand-in.
 */
function hashedInitialChunkFilename(pathData) {
  const hashed = pathData.chunk && pathData.chunk.contentHash && pathData.chunk.contentHash.javascript;
  return hashed ? '[name].[contenthash:10].js' : '[name].js';
}

/**
 * @param {object} options
 * @param {string} options.dir            the front end's folder (__dirname of its webpack.config.js)
 * @param {'production'|'development'} options.mode
 * @param {object} options.federation     ModuleFederationPlugin options (name, exposes, ...)
 * @param {string} options.publicPath
 * @param {import('webpack').EntryObject} [options.entry]
 * @param {import('webpack').WebpackPluginInstance[]} [options.plugins]
 */
function createConfig({ dir, mode, federation, publicPath, entry = {}, plugins = [] }) {
  const pkg = require(path.join(dir, 'package.json'));
  const production = mode === 'production';
  return {
    mode,
    context: dir,
    target: ['web', 'es2020'],
    entry,
    // Cheap maps in development only: production builds stay fast on small CI machines.
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath,
      filename: production ? hashedInitialChunkFilename : '[name].js',
      chunkFilename: production ? '[id].[contenthash:10].js' : '[id].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs'],
      alias: {
        '@tyres/platform': PLATFORM_SRC,
        '@tyres/reference-data': REFERENCE_DATA_SRC,
        '@tyres/kernel': KERNEL_SRC,
      },
    },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          include: [path.join(dir, 'src'), PLATFORM_SRC, REFERENCE_DATA_SRC, KERNEL_SRC],
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                target: 'es2020',
                transform: { react: { runtime: 'automatic', development: !production } },
              },
            },
          },
        },
        // Plain CSS imported as text and injected by @tyres/platform's injectStyles.
        { test: /\.css$/, include: [path.join(dir, 'src'), PLATFORM_SRC], type: 'asset/source' },
      ],
    },
    plugins: [
      new ModuleFederationPlugin({
        shared: sharedSingletons(pkg),
        // Remotes are registered at run time, so the host must not load every remote entry up front
        // to negotiate versions: use whatever singleton is already loaded (the shell's).
        shareStrategy: 'loaded-first',
        // The host/remote contract is typed through @tyres/platform (RemoteAppProps), compiled by both
        // sides; generated remote types would need the remotes' URLs at build time, which we do not have.
        dts: false,
        ...federation,
      }),
      ...plugins,
    ],
    optimization: {
      minimizer: [swcMinimizer() ?? '...'],
      // Stable ids keep content hashes stable across unrelated changes.
      moduleIds: 'deterministic',
      chunkIds: production ? 'deterministic' : 'named',
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

module.exports = { createConfig, sharedSingletons, PLATFORM_SRC, REFERENCE_DATA_SRC, KERNEL_SRC };
