import { isValidElement, type ReactNode } from 'react';
import { injectStyles } from './styles';

/**
 * Toasts (spec sections 8 and 9): a default and a destructive look, only one shown at a time, 5 s by default,
 * a dismissed toast kept (hidden) for TOAST_REMOVE_DELAY_MS before it is dropped.
 *
 * Deliberately plain DOM, not antd: the public site never loads antd before the booking dialog (and not even
 * then), and a toast must be cheap to raise from any bundle. Every bundle compiles its own copy of this file,
 * so the state that makes "one at a time" hold across the shell and both remotes is the DOM itself: a single
 * live region (#tyres-toasts) in <body>, whichever copy created it.
 */
export const TOAST_DURATION_MS = 5000;
/** How long a dismissed toast stays in the DOM (hidden) before it is removed (spec section 9). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/**
 * Kept for compatibility: antd App/notification settings matching the toast rules, for code that still raises
 * antd notifications directly (the shell passes it to the dashboard's antd <App>).
 */
export const TOAST_CONFIG = {
  maxCount: 1,
  duration: TOAST_DURATION_MS / 1000,
  placement: 'top' as const,
  showProgress: false,
  pauseOnHover: true,
};

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds; defaults to 5000. */
  duration?: number;
}

export interface ToastApi {
  toast(options: ToastOptions): void;
  dismiss(): void;
}

const REGION_ID = 'tyres-toasts';

const CSS = `
.tyres-toast-region{position:fixed;z-index:2147483000;top:0;left:0;right:0;display:flex;flex-direction:column;
  align-items:center;gap:8px;padding:12px;padding-top:max(12px,env(safe-area-inset-top));pointer-events:none}
.tyres-toast{pointer-events:auto;position:relative;width:100%;max-width:420px;box-sizing:border-box;
  padding:14px 44px 14px 16px;border-radius:10px;background:#fff;color:#111827;border:1px solid #e5e7eb;
  box-shadow:0 10px 30px rgba(15,23,42,.18),0 2px 6px rgba(15,23,42,.08);font:inherit;font-size:15px;line-height:1.45;
  animation:tyres-toast-in .18s ease-out}
.tyres-toast[data-state=closed]{display:none}
.tyres-toast--destructive{background:#b91c1c;border-color:#991b1b;color:#fff}
.tyres-toast__title{margin:0;font-weight:700}
.tyres-toast__description{margin:4px 0 0}
.tyres-toast__close{position:absolute;top:8px;right:8px;width:32px;height:32px;display:flex;align-items:center;
  justify-content:center;border:0;border-radius:6px;background:transparent;color:inherit;font-size:20px;line-height:1;
  cursor:pointer;opacity:.75}
.tyres-toast__close:hover,.tyres-toast__close:focus-visible{opacity:1;background:rgba(127,127,127,.18)}
.tyres-toast__close:focus-visible{outline:2px solid currentColor;outline-offset:1px}
@keyframes tyres-toast-in{from{opacity:0;transform:translateY(-6px)}to{opacity:1;transform:none}}
@media (min-width:640px){.tyres-toast-region{left:auto;align-items:flex-end;padding:16px 24px}}
@media (prefers-reduced-motion:reduce){.tyres-toast{animation:none}}
`;

interface ToastElement extends HTMLElement {
  tyresClose?: () => void;
}

/**
 * Where the region must live: a modal <dialog> puts itself in the top layer and makes the rest of the page
 * inert, so a toast outside it would be hidden behind it (and unreachable for assistive technology). The
 * region therefore moves into the topmost open modal dialog, and back to <body> when there is none.
 */
function hostElement(): HTMLElement {
  const modalSupported =
    typeof HTMLDialogElement === 'function' && 'showModal' in HTMLDialogElement.prototype;
  const open = Array.from(document.querySelectorAll<HTMLDialogElement>('dialog[open]')).filter((dialog) => {
    if (!modalSupported) return true; // dialogs are opened with the open attribute: treat them as modal
    try {
      return dialog.matches(':modal');
    } catch {
      return true; // no :modal selector support
    }
  });
  return open[open.length - 1] ?? document.body;
}

function region(): HTMLElement {
  let el = document.getElementById(REGION_ID);
  if (el) {
    const host = hostElement();
    if (el.parentElement !== host) host.appendChild(el);
  }
  if (!el) {
    injectStyles('toast', CSS);
    el = document.createElement('section');
    el.id = REGION_ID;
    el.className = 'tyres-toast-region';
    el.setAttribute('aria-label', 'Notifications');
    el.setAttribute('aria-live', 'polite');
    el.setAttribute('aria-relevant', 'additions text');
    hostElement().appendChild(el);
  }
  return el;
}

/** Strings and numbers become text; anything else is rendered to text (React elements by their text content). */
function fill(target: HTMLElement, content: ReactNode): void {
  if (content === null || content === undefined || typeof content === 'boolean') return;
  if (typeof content === 'string' || typeof content === 'number') {
    target.textContent = String(content);
    return;
  }
  if (Array.isArray(content)) {
    for (const part of content) {
      const span = document.createElement('span');
      fill(span, part as ReactNode);
      target.appendChild(span);
    }
    return;
  }
  if (isValidElement(content)) {
    const { children } = content.props as { children?: ReactNode };
    fill(target, children);
  }
}

function dismissAll(except?: HTMLElement): void {
  const el = document.getElementById(REGION_ID);
  if (!el) return;
  el.querySelectorAll<ToastElement>('.tyres-toast').forEach((toastEl) => {
    if (toastEl === except) return;
    if (toastEl.dataset.state === 'open') toastEl.tyresClose?.();
    else toastEl.remove(); // an older dismissed toast: only the latest dismissed one is kept around
  });
}

function showToast({
  title,
  description,
  variant = 'default',
  duration = TOAST_DURATION_MS,
}: ToastOptions): void {
  if (typeof document === 'undefined') return;
  const host = region();
  const el: ToastElement = document.createElement('div');
  el.className = `tyres-toast tyres-toast--${variant}`;
  el.dataset.state = 'open';
  el.setAttribute('role', variant === 'destructive' ? 'alert' : 'status');
  el.setAttribute('aria-atomic', 'true');

  const titleEl = document.createElement('p');
  titleEl.className = 'tyres-toast__title';
  fill(titleEl, title);
  el.appendChild(titleEl);
  if (description !== undefined && description !== null && description !== '') {
    const descriptionEl = document.createElement('p');
    descriptionEl.className = 'tyres-toast__description';
    fill(descriptionEl, description);
    el.appendChild(descriptionEl);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'tyres-toast__close';
  close.setAttribute('aria-label', 'Dismiss notification');
  close.textContent = '×';
  el.appendChild(close);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let removeTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const start = () => {
    stop();
    if (duration > 0 && Number.isFinite(duration)) timer = setTimeout(closeToast, duration);
  };
  function closeToast() {
    stop();
    if (el.dataset.state === 'closed') return;
    el.dataset.state = 'closed';
    el.setAttribute('aria-hidden', 'true');
    removeTimer = setTimeout(() => el.remove(), TOAST_REMOVE_DELAY_MS);
    // Never keep a timer alive just for cleanup (Node test runners, page unload).
    (removeTimer as { unref?: () => void }).unref?.();
  }
  el.tyresClose = closeToast;
  close.addEventListener('click', closeToast);
  // Pause while the pointer or keyboard focus is on the toast, so it can be read and dismissed.
  el.addEventListener('mouseenter', stop);
  el.addEventListener('mouseleave', start);
  el.addEventListener('focusin', stop);
  el.addEventListener('focusout', start);

  dismissAll(el);
  host.appendChild(el);
  start();
}

const api: ToastApi = {
  toast: showToast,
  dismiss: () => dismissAll(),
};

/** Raise a toast from anywhere (also outside React). */
export const toast = showToast;
export const dismissToasts = (): void => dismissAll();

/** The toast API for components. Needs no provider; stable across renders. */
export function useToast(): ToastApi {
  return api;
}
