import type { ThemeConfig } from 'antd';

/**
 * The palette, written once: antd's theme (dashboard) takes its tokens from here, and the public site's CSS reads
 * the same colours as CSS custom properties (`var(--tyres-color-primary)`, see paletteCss).
 */
export const PALETTE = {
  // Brand (blue)
  primary: '#1d4ed8',
  primaryHover: '#1e40af',
  primaryDeep: '#1e3a8a',
  primarySoft: '#dbeafe',
  primaryTint: '#eff6ff',
  primaryBorder: '#bfdbfe',
  primaryPale: '#e0e7ff',
  // Text and surfaces (gray)
  white: '#fff',
  text: '#111827',
  textStrong: '#1f2937',
  textSecondary: '#374151',
  textMuted: '#4b5563',
  textFaint: '#9ca3af',
  border: '#e5e7eb',
  borderStrong: '#d1d5db',
  surfaceMuted: '#f3f4f6',
  surfaceSubtle: '#f9fafb',
  // Dark sections (slate)
  slate50: '#f8fafc',
  slate100: '#f1f5f9',
  slate200: '#e2e8f0',
  slate300: '#cbd5e1',
  slate400: '#94a3b8',
  slate800: '#1e293b',
  slate900: '#0f172a',
  // Focus ring, ratings and warnings (amber)
  focus: '#f59e0b',
  amber50: '#fffbeb',
  amber300: '#fcd34d',
  amber400: '#fbbf24',
  amber700: '#b45309',
  amber800: '#92400e',
  amber900: '#78350f',
  // Success (green, emerald)
  success: '#16a34a',
  successDark: '#15803d',
  emerald50: '#ecfdf5',
  emerald200: '#a7f3d0',
  emerald700: '#047857',
  emerald800: '#065f46',
  // Errors (red)
  danger: '#b91c1c',
  dangerDark: '#991b1b',
  dangerTint: '#fef2f2',
} as const;

export type PaletteColor = keyof typeof PALETTE;

/** Brand colour shared by the public site's own CSS and antd's theme (dashboard). */
export const BRAND_PRIMARY = PALETTE.primary;

/** The CSS custom property of a palette colour: primaryHover -> `--tyres-color-primary-hover`. */
export function cssVarName(color: PaletteColor): string {
  return `--tyres-color-${color.replace(/([a-z])([A-Z0-9])/g, '$1-$2').toLowerCase()}`;
}

/** `var(--tyres-color-…)` for inline styles. */
export const cssVar = (color: PaletteColor): string => `var(${cssVarName(color)})`;

/** The palette as CSS custom properties on `selector` (default `:root`), to put before a stylesheet using them. */
export function paletteCss(selector = ':root'): string {
  const declarations = (Object.keys(PALETTE) as PaletteColor[])
    .map((color) => `${cssVarName(color)}: ${PALETTE[color]};`)
    .join(' ');
  return `${selector} { ${declarations} }`;
}

/** antd theme of the staff dashboard (the public site does not load antd at all). Type-only antd import. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: PALETTE.primary,
    colorLink: PALETTE.primary,
    borderRadius: 8,
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    // Comfortable tap targets on phones.
    Button: { controlHeightLG: 48 },
    Input: { controlHeightLG: 48 },
  },
};
