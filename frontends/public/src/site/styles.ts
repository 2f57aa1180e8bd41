import { paletteCss } from '@tyres/platform/theme';
import css from '../public.css';

/**
 * The public site's stylesheet: the palette as CSS custom properties (from @tyres/platform's theme, the one source
 * of the colours) and then public.css, which reads them (`var(--tyres-color-primary)`). booking.css and
 * checkout.css read them too; they only ever load on a page that has this sheet. The prerendered pages inline it.
 */
export const PUBLIC_CSS = `${paletteCss(':root')}\n${css}`;
