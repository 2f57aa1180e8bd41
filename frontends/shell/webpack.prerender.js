// Node bundle of the prerenderer (scripts/prerender.mjs): the shell's tree and the public remote's pages,
// compiled like the browser bundles (swc, CSS as text) so the HTML matches what the browser hydrates.
const path = require('node:path');
const webpack = require('webpack');
const { PLATFORM_SRC, REFERENCE_DATA_SRC, KERNEL_SRC } = require('../platform/webpack/common');

const PUBLIC_SRC = path.resolve(__dirname, '../public/src');
const OUT_DIR = path.resolve(__dirname, 'node_modules/.cache/tyres-prerender');

module.exports = {
  mode: 'production',
  target: 'node20',
  context: __dirname,
  entry: { prerender: './src/prerender/entry.tsx' },
  devtool: false,
  // Rebuilding the renderer is most of the prerender's time; webpack's disk cache makes repeat builds fast.
  cache: {
    type: 'filesystem',
    cacheDirectory: path.resolve(__dirname, 'node_modules/.cache/tyres-prerender-webpack'),
  },
  output: { path: OUT_DIR, filename: '[name].js', library: { type: 'commonjs2' }, clean: true },
  resolve: {
    extensions: ['.tsx', '.ts', '.js', '.mjs'],
    alias: {
      '@tyres/platform': PLATFORM_SRC,
      '@tyres/reference-data': REFERENCE_DATA_SRC,
      '@tyres/kernel': KERNEL_SRC,
      // Never called on the server (the public remote is registered directly).
      '@module-federation/enhanced/runtime': false,
    },
  },
  // One React for the renderer and the components: resolved from node_modules at run time.
  externals: [
    /^react($|\/)/,
    /^react-dom($|\/)/,
    /^@tanstack\/react-query($|\/)/,
    /^react-router(-dom)?($|\/)/,
  ],
  externalsType: 'commonjs',
  module: {
    rules: [
      {
        test: /\.[cm]?tsx?$/,
        include: [path.join(__dirname, 'src'), PUBLIC_SRC, PLATFORM_SRC, REFERENCE_DATA_SRC, KERNEL_SRC],
        use: {
          loader: 'swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              target: 'es2022',
              transform: { react: { runtime: 'automatic', development: false } },
            },
          },
        },
      },
      { test: /\.css$/, include: [PUBLIC_SRC, PLATFORM_SRC], type: 'asset/source' },
    ],
  },
  plugins: [
    new webpack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') }),
    // The booking dialog, checkout and legal pages are lazy in the browser; on the server one file is simpler.
    new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
  ],
  optimization: { minimize: false },
  performance: { hints: false },
  stats: 'errors-warnings',
};
