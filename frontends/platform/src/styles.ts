/**
 * Injects a stylesheet once per id. Front ends keep plain CSS next to components (imported as text
 * through webpack's asset/source) and call this at module load, so no CSS loader is needed and a
 * remote's styles arrive with its code.
 */
export function injectStyles(id: string, css: string): void {
  if (typeof document === 'undefined') return;
  const elementId = `tyres-style-${id}`;
  if (document.getElementById(elementId)) return;
  const style = document.createElement('style');
  style.id = elementId;
  style.textContent = css;
  document.head.appendChild(style);
}
