/**
 * <head> tags of a page from its PageMeta: rendered as HTML by the prerenderer and applied to the live
 * document by useDocumentMeta() on client-side navigation. Tags carry data-tyres-meta so they can be found
 * and replaced.
 */
import { useEffect } from 'react';
import { absoluteUrl, type PageMeta } from './meta';

export type HeadTag =
  | { tag: 'title'; text: string }
  | { tag: 'meta'; attrs: Record<string, string> }
  | { tag: 'link'; attrs: Record<string, string> }
  | { tag: 'jsonld'; json: string };

export function headTags(meta: PageMeta, siteUrl: string, siteName: string): HeadTag[] {
  const url = absoluteUrl(siteUrl, meta.canonicalPath);
  const tags: HeadTag[] = [
    { tag: 'title', text: meta.title },
    { tag: 'meta', attrs: { name: 'description', content: meta.description } },
    { tag: 'meta', attrs: { name: 'keywords', content: meta.keywords } },
  ];
  if (meta.noindex) tags.push({ tag: 'meta', attrs: { name: 'robots', content: 'noindex' } });
  if (meta.noReferrer) tags.push({ tag: 'meta', attrs: { name: 'referrer', content: 'no-referrer' } });
  tags.push(
    { tag: 'link', attrs: { rel: 'canonical', href: url } },
    { tag: 'meta', attrs: { property: 'og:type', content: meta.ogType } },
    { tag: 'meta', attrs: { property: 'og:site_name', content: siteName } },
    { tag: 'meta', attrs: { property: 'og:locale', content: 'en_AU' } },
    { tag: 'meta', attrs: { property: 'og:title', content: meta.title } },
    { tag: 'meta', attrs: { property: 'og:description', content: meta.description } },
    { tag: 'meta', attrs: { property: 'og:url', content: url } },
    { tag: 'meta', attrs: { name: 'twitter:card', content: 'summary' } },
    { tag: 'meta', attrs: { name: 'twitter:title', content: meta.title } },
    { tag: 'meta', attrs: { name: 'twitter:description', content: meta.description } },
  );
  for (const data of meta.jsonLd) tags.push({ tag: 'jsonld', json: JSON.stringify(data) });
  return tags;
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside <script>: never let the data close the element. */
export const escapeScriptJson = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export function renderHeadTags(tags: HeadTag[]): string {
  return tags
    .map((t) => {
      switch (t.tag) {
        case 'title':
          return `<title>${escapeHtml(t.text)}</title>`;
        case 'meta':
        case 'link': {
          const attrs = Object.entries(t.attrs)
            .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
            .join('');
          return `<${t.tag} data-tyres-meta${attrs}>`;
        }
        case 'jsonld':
          return `<script type="application/ld+json" data-tyres-meta>${escapeScriptJson(t.json)}</script>`;
      }
    })
    .join('\n    ');
}

function keyOf(attrs: Record<string, string>): string | null {
  if (attrs.rel) return `link[rel="${attrs.rel}"]`;
  if (attrs.name) return `meta[name="${attrs.name}"]`;
  if (attrs.property) return `meta[property="${attrs.property}"]`;
  return null;
}

export function applyHeadTags(doc: Document, tags: HeadTag[]): void {
  const wanted = new Set<string>();
  const json: string[] = [];
  for (const t of tags) {
    if (t.tag === 'title') {
      if (doc.title !== t.text) doc.title = t.text;
      continue;
    }
    if (t.tag === 'jsonld') {
      json.push(t.json);
      continue;
    }
    const selector = keyOf(t.attrs);
    if (!selector) continue;
    wanted.add(selector);
    let el = doc.head.querySelector(selector);
    if (!el) {
      el = doc.createElement(t.tag);
      el.setAttribute('data-tyres-meta', '');
      doc.head.appendChild(el);
    }
    for (const [k, v] of Object.entries(t.attrs)) if (el.getAttribute(k) !== v) el.setAttribute(k, v);
  }
  // Tags of the previous page this one does not have (robots noindex, for one).
  doc.head.querySelectorAll('[data-tyres-meta]:not(script)').forEach((el) => {
    const attrs: Record<string, string> = {};
    for (const name of ['rel', 'name', 'property']) {
      const value = el.getAttribute(name);
      if (value) attrs[name] = value;
    }
    const selector = keyOf(attrs);
    if (selector && !wanted.has(selector)) el.remove();
  });
  const scripts = Array.from(
    doc.head.querySelectorAll('script[type="application/ld+json"][data-tyres-meta]'),
  );
  const current = scripts.map((s) => s.textContent ?? '');
  if (current.length === json.length && current.every((text, i) => text === json[i])) return;
  scripts.forEach((s) => s.remove());
  for (const text of json) {
    const script = doc.createElement('script');
    script.type = 'application/ld+json';
    script.setAttribute('data-tyres-meta', '');
    script.textContent = text;
    doc.head.appendChild(script);
  }
}

/** Keeps <head> in step with the page shown (client-side navigation; crawlers that run scripts). */
export function useDocumentMeta(meta: PageMeta, siteUrl: string, siteName: string): void {
  const tags = JSON.stringify(headTags(meta, siteUrl, siteName));
  useEffect(() => {
    applyHeadTags(document, JSON.parse(tags) as HeadTag[]);
  }, [tags]);
}
