#!/usr/bin/env node
// Prerenders the crawlable public pages into frontends/shell/dist after the shell build (npm run build):
//   /                       -> dist/index.html          (app.html stays the neutral SPA shell)
//   /about, /privacy, ...   -> dist/<path>/index.html
//   /suburb/<name>, /mobile-tyres-<name> for the 42 landing suburbs
//   dist/sitemap.xml, dist/robots.txt
// Each page is the real React tree rendered to HTML with its <head> (title, description, keywords, Open Graph,
// Twitter, canonical, JSON-LD) and the public CSS inlined, so crawlers and first paint need no script; the
// browser then hydrates it (frontends/README.md, "Prerendered pages").
//
// The business details, site URL and host names come from dist/config.json (the build writes the defaults
// there; SITE_CONFIG=/path/to/config.json at build time merges a deployment's file over them).
// Run alone (after a build) with: node frontends/shell/scripts/prerender.mjs [--config path/to/config.json]
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const SHELL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(SHELL_DIR, 'dist');
process.env.NODE_ENV = 'production';

function buildRenderer() {
  const webpack = require('webpack');
  const config = require(path.join(SHELL_DIR, 'webpack.prerender.js'));
  return new Promise((resolve, reject) => {
    webpack(config, (err, stats) => {
      if (err) return reject(err);
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve(path.join(config.output.path, 'prerender.js'));
    });
  });
}

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const escapeAttr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeXml = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/** Comments and insignificant whitespace out (the stylesheet has no strings or url()s that could contain them). */
function minifyCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':') // never the space before a colon: ".a :focus" is a descendant selector
    .replace(/;}/g, '}')
    .trim();
}

function fileFor(pagePath) {
  if (pagePath === '/') return path.join(DIST, 'index.html');
  const clean = pagePath.replace(/^\/+|\/+$/g, '');
  if (!/^[a-z0-9/-]+$/.test(clean)) throw new Error(`refusing to write page path ${pagePath}`);
  return path.join(DIST, clean, 'index.html');
}

async function main() {
  const started = Date.now();
  const template = await readFile(path.join(DIST, 'app.html'), 'utf8').catch(() => {
    throw new Error('frontends/shell/dist/app.html is missing: run the shell build first (npm run build)');
  });
  const configPath = argValue('--config') ?? path.join(DIST, 'config.json');
  const configJson = JSON.parse(await readFile(configPath, 'utf8'));

  const rendererFile = await buildRenderer();
  const renderer = require(rendererFile);
  const config = renderer.configFrom(configJson);
  const siteUrl = config.siteUrl;
  if (!siteUrl) {
    throw new Error(
      'siteUrl is not configured (config.json): canonical links, Open Graph URLs and the sitemap need the ' +
        'public site\'s absolute origin, e.g. "siteUrl": "https://www.example.com.au"',
    );
  }
  if (siteUrl.endsWith('.example')) {
    console.warn(
      `[prerender] siteUrl is the placeholder ${siteUrl}: set the real one in config.json for production`,
    );
  }
  const hostname = new URL(siteUrl).hostname;
  const ctx = { business: config.business, siteUrl };
  const { pages, sitemap } = renderer.crawlablePages(ctx);

  const css = minifyCss(renderer.publicCss);
  const rootPattern = /<div id="root">[\s\S]*?Loading…<\/span>\s*<\/div>\s*<\/div>/;
  if (!rootPattern.test(template)) throw new Error('app.html: could not find the #root placeholder');
  const baseTemplate = template
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<meta name="description"[^>]*>/, '');

  for (const page of pages) {
    const body = await renderer.renderPage(page.path, config, hostname);
    const head = renderer.renderHeadTags(renderer.headTags(page.meta, siteUrl, config.business.name));
    const info = { path: page.path, business: config.business };
    // Replacer functions: page text contains "$" (prices), which a replacement string would interpret.
    const html = baseTemplate
      .replace('</head>', () => `${head}<style id="tyres-style-public">${css}</style></head>`)
      .replace(rootPattern, () => `<div id="root" data-prerendered="">${body}</div>`)
      .replace(
        '</body>',
        () =>
          `<script type="application/json" id="${renderer.PRERENDER_INFO_ID}">${scriptJson(info)}</script></body>`,
      );
    const file = fileFor(page.path);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, html);
  }

  const today = new Date().toISOString().slice(0, 10);
  const urls = sitemap
    .map(
      (p) =>
        `  <url><loc>${escapeXml(new URL(p, `${siteUrl}/`).href)}</loc><lastmod>${today}</lastmod>` +
        `<changefreq>${p === '/' ? 'weekly' : 'monthly'}</changefreq><priority>${p === '/' ? '1.0' : '0.7'}</priority></url>`,
    )
    .join('\n');
  await writeFile(
    path.join(DIST, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
  await writeFile(
    path.join(DIST, 'robots.txt'),
    [
      'User-agent: *',
      'Allow: /',
      'Disallow: /dashboard',
      'Disallow: /auth',
      'Disallow: /checkout/',
      '',
      `Sitemap: ${new URL('/sitemap.xml', `${siteUrl}/`).href}`,
      '',
    ].join('\n'),
  );
  console.log(
    `[prerender] ${pages.length} pages, sitemap.xml (${sitemap.length} URLs) and robots.txt in ${Date.now() - started} ms` +
      ` (site ${escapeAttr(siteUrl)})`,
  );
}

main().catch((error) => {
  console.error('[prerender] failed:', error);
  process.exit(1);
});
