#!/usr/bin/env node
// Prerenders the crawlable public pages into frontends/shell/dist after the shell build (npm run build):
//   /                       -> dist/index.html          (app.html stays the neutral SPA shell)
//   /about, /privacy, ...   -> dist/<path>/index.html
//   /suburb/<name>, /mobile-tyres-<name> for the 42 landing suburbs
//   dist/sitemap.xml, dist/robots.txt
//   dist/.site-template/     the same files rendered with stand-in tokens for the site URL and business details,
//                            and defaults.env (the build's values), for the image's start step
// Each page is the real React tree rendered to HTML with its <head> (title, description, keywords, Open Graph,
// Twitter, canonical, JSON-LD) and the public CSS inlined, so crawlers and first paint need no script; the
// browser then hydrates it (frontends/README.md, "Prerendered pages").
//
// The business details, site URL and host names come from dist/config.json (the build writes the defaults
// there; SITE_CONFIG=/path/to/config.json at build time merges a deployment's file over them). A container
// renders dist/.site-template with its own environment instead (SITE_URL, BUSINESS_NAME, BUSINESS_PHONE,
// BUSINESS_ABN, BUSINESS_EMAIL: docker-entrypoint.d/40-render-site.sh), so one image serves any deployment.
// Run alone (after a build) with: node frontends/shell/scripts/prerender.mjs [--config path/to/config.json]
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const SHELL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(SHELL_DIR, 'dist');
// Inside dist so the image's one COPY of dist carries it; nginx never serves it (frontends/shell/nginx.conf).
const TEMPLATE_DIR = path.join(DIST, '.site-template');

/**
 * Stand-ins the start step replaces with the deployment's values, escaped for where each one lands (HTML text
 * and attributes, JSON in <script>, XML, text). Letters and underscores only (the site URL: a valid origin), so
 * every escaper leaves them as they are; each token is no part of another. Keep in step with
 * docker-entrypoint.d/40-render-site.sh.
 */
const TEMPLATE_SITE_URL = 'https://tyres-site-url.invalid';
const TEMPLATE_BUSINESS = {
  name: '__TYRES_BUSINESS_NAME__',
  phone: '__TYRES_BUSINESS_TEL__',
  phoneDisplay: '__TYRES_BUSINESS_PHONE__',
  abn: '__TYRES_BUSINESS_ABN__',
  email: '__TYRES_BUSINESS_EMAIL__',
};
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

// The escaping React uses for text and attributes.
const escapeHtml = (v) =>
  String(v)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
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

function fileFor(dir, pagePath) {
  if (pagePath === '/') return path.join(dir, 'index.html');
  const clean = pagePath.replace(/^\/+|\/+$/g, '');
  // Plain names only: the start step passes these paths through the shell unquoted.
  if (!/^[a-z0-9/-]+$/.test(clean)) throw new Error(`refusing to write page path ${pagePath}`);
  return path.join(dir, clean, 'index.html');
}

/** Every file ends with a line break, so the start step (awk, line by line) reproduces it byte for byte. */
const withNewline = (text) => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * app.html with the business name in its <title> and <noscript> (src/index.html: "<name> needs JavaScript…").
 * The pages drop that title for their own.
 */
function withBusinessName(appHtml, name) {
  const title = /<title>[^<]*<\/title>/;
  const noscript = /<noscript>[^<]*?(?= needs JavaScript)/;
  if (!title.test(appHtml) || !noscript.test(appHtml))
    throw new Error('app.html: expected <title> and "<noscript><name> needs JavaScript" (src/index.html)');
  return appHtml
    .replace(title, () => `<title>${escapeHtml(name)}</title>`)
    .replace(noscript, () => `<noscript>${escapeHtml(name)}`);
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
  const { pages, sitemap } = await renderSite(renderer, template, config, DIST);

  // The template: the same pages with the stand-ins, and the build's values for runs outside production.
  const templateConfig = renderer.configFrom({
    ...configJson,
    siteUrl: TEMPLATE_SITE_URL,
    business: TEMPLATE_BUSINESS,
  });
  await rm(TEMPLATE_DIR, { recursive: true, force: true });
  await renderSite(renderer, template, templateConfig, TEMPLATE_DIR);
  const { business } = config;
  const defaults = {
    SITE_URL: siteUrl,
    BUSINESS_NAME: business.name,
    BUSINESS_PHONE: business.phoneDisplay ?? business.phone,
    BUSINESS_ABN: business.abn,
    BUSINESS_EMAIL: business.email,
  };
  await writeFile(
    path.join(TEMPLATE_DIR, 'defaults.env'),
    Object.entries(defaults)
      // One line each (the start step reads it line by line, never as shell code).
      .map(([key, value]) => `${key}=${String(value ?? '').replace(/[\r\n]+/g, ' ')}\n`)
      .join(''),
  );

  console.log(
    `[prerender] ${pages.length} pages, sitemap.xml (${sitemap.length} URLs) and robots.txt, and their template ` +
      `(.site-template) in ${Date.now() - started} ms (site ${siteUrl})`,
  );
}

/** The pages, app.html, sitemap.xml and robots.txt of one configuration, written under `dir`. */
async function renderSite(renderer, template, config, dir) {
  const { siteUrl } = config;
  const hostname = new URL(siteUrl).hostname;
  const ctx = { business: config.business, siteUrl };
  const { pages, sitemap } = renderer.crawlablePages(ctx);

  const css = minifyCss(renderer.publicCss);
  const rootPattern = /<div id="root">[\s\S]*?Loading…<\/span>\s*<\/div>\s*<\/div>/;
  if (!rootPattern.test(template)) throw new Error('app.html: could not find the #root placeholder');
  const appHtml = withBusinessName(template, config.business.name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'app.html'), withNewline(appHtml));
  const baseTemplate = appHtml
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
    const file = fileFor(dir, page.path);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, withNewline(html));
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
    path.join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
  await writeFile(
    path.join(dir, 'robots.txt'),
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
  return { pages, sitemap };
}

main().catch((error) => {
  console.error('[prerender] failed:', error);
  process.exit(1);
});
