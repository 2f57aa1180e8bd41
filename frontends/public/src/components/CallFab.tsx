import { useEffect, useRef, useState, type RefObject } from 'react';
import { PhoneIcon } from './icons';

/** Text that shows an amount of money ("$129.80", "$ 40"). */
export const PRICE_TEXT = /\$\s?\d/;
/** Actions the floating button must never sit on: the site's buttons and any submit button. */
const ACTION_SELECTOR = '.pub-btn, button[type="submit"]';
/** Room kept around the button, so a price right next to it is not crowded either (CSS px). */
const CLEARANCE_PX = 8;

/**
 * Elements the floating call button must not cover: every element holding price text, and the primary actions.
 * Found by what they show rather than by a marker, so a price added to any page is covered without remembering to
 * tag it.
 */
export function priceAndActionElements(root: ParentNode, fab: Element | null): Element[] {
  const found = new Set<Element>();
  const doc = (root as Node).ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || (fab && fab.contains(parent))) continue;
    if (PRICE_TEXT.test(node.nodeValue ?? '')) found.add(parent);
  }
  for (const el of Array.from(root.querySelectorAll(ACTION_SELECTOR))) {
    if (!fab || !fab.contains(el)) found.add(el);
  }
  return [...found];
}

/**
 * True while a price or a primary action passes under the floating button (issue 12: no floating control may
 * hide a price). An IntersectionObserver whose root box is shrunk, with negative margins, to the button's own box
 * (plus a little clearance) reports exactly the elements under it as the page scrolls, without scroll handlers.
 * The watched elements are found again after the page changes (route changes, a quote arriving) and the observer
 * is rebuilt when the screen size changes (the margins depend on it).
 */
export function useCoversContent(fab: RefObject<HTMLElement | null>): boolean {
  const [covering, setCovering] = useState(false);
  useEffect(() => {
    const el = fab.current;
    if (!el || typeof IntersectionObserver !== 'function' || typeof MutationObserver !== 'function') return;
    let observer: IntersectionObserver | null = null;
    const under = new Set<Element>();
    let pending = 0;

    const rebuild = () => {
      pending = 0;
      observer?.disconnect();
      observer = null;
      under.clear();
      const box = el.getBoundingClientRect();
      // Not shown at this size (wide screens hide it with CSS): nothing to watch.
      if (box.width === 0 || box.height === 0) {
        setCovering(false);
        return;
      }
      const px = (n: number) => `${Math.round(-Math.max(0, n))}px`;
      const margin = [
        px(box.top - CLEARANCE_PX),
        px(window.innerWidth - box.right - CLEARANCE_PX),
        px(window.innerHeight - box.bottom - CLEARANCE_PX),
        px(box.left - CLEARANCE_PX),
      ].join(' ');
      observer = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            if (entry.isIntersecting) under.add(entry.target);
            else under.delete(entry.target);
          }
          setCovering(under.size > 0);
        },
        { rootMargin: margin, threshold: 0 },
      );
      const targets = priceAndActionElements(document.body, el);
      for (const target of targets) observer.observe(target);
      if (targets.length === 0) setCovering(false);
    };
    const schedule = () => {
      if (pending) return;
      pending = window.setTimeout(rebuild, 50);
    };

    rebuild();
    const mutations = new MutationObserver((records) => {
      // Its own show/hide does not change what is on the page.
      if (records.every((r) => r.target === el)) return;
      schedule();
    });
    mutations.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener('resize', schedule);
    return () => {
      if (pending) window.clearTimeout(pending);
      mutations.disconnect();
      observer?.disconnect();
      window.removeEventListener('resize', schedule);
    };
  }, [fab]);
  return covering;
}

/**
 * The round "call now" button floating at the bottom right on phones. It steps aside (fades out, and cannot be
 * tapped) while a price or a button would be under it; the page's own call links stay where they are.
 */
export function CallFab({ phone, phoneText }: { phone: string; phoneText: string }) {
  const ref = useRef<HTMLAnchorElement>(null);
  const covering = useCoversContent(ref);
  return (
    <a
      ref={ref}
      className={`pub-fab${covering ? ' pub-fab--aside' : ''}`}
      href={`tel:${phone}`}
      aria-label={`Call now on ${phoneText}`}
      tabIndex={covering ? -1 : undefined}
    >
      <PhoneIcon size={26} />
    </a>
  );
}
