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
  // The lightest grey text that is still 4.5:1 on the light greys (#f3f4f6, a disabled field's #f5f5f5): WCAG AA.
  textSubtle: '#646b77',
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

/**
 * Text colours of antd's preset tags (`<Tag color="green">`: text `green7` on background `green1`), for those whose
 * default is under WCAG AA's 4.5:1 for their 12px text (issue 19: status tags). Each is a darker step of the same
 * antd palette (step 8, or 9 where 8 is still under 4.5:1), so a paid tag still reads green; background and border
 * stay antd's. test/unit/theme-contrast.test.ts computes every preset's ratio.
 */
export const TAG_TEXT_COLOURS = {
  green7: '#237804', // green-8: 5.4:1 on green-1 (antd's green-7: 3.4:1)
  cyan7: '#006d75', // cyan-8: 5.8:1 (was 3.4:1)
  orange7: '#ad4e00', // orange-8: 5.1:1 (was 3.3:1)
  volcano7: '#ad2102', // volcano-8: 6.4:1 (was 4.4:1)
  gold7: '#874d00', // gold-9: 6.5:1 (gold-8 is 4.3:1; was 2.8:1)
  yellow7: '#876800', // yellow-9: 5.2:1 (was 2.1:1)
  lime7: '#3f6600', // lime-9: 6.6:1 (was 2.5:1)
} as const;

/**
 * TAG_TEXT_COLOURS as antd tokens: both `green7` and its legacy twin `green-7`, since with CSS variables both become
 * `--ant-green-7` and the legacy one, written last, would otherwise put antd's colour back.
 */
function tagTextTokens(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(TAG_TEXT_COLOURS).flatMap(([name, colour]) => [
      [name, colour],
      [name.replace(/(\d+)$/, '-$1'), colour],
    ]),
  );
}

/** antd theme of the staff dashboard (the public site does not load antd at all). Type-only antd import. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: PALETTE.primary,
    colorLink: PALETTE.primary,
    borderRadius: 8,
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
    // WCAG 2.1 AA (issue 19): antd's red (#ff4d4f) is 3.3:1 on white, so danger buttons, danger links and form
    // errors failed; the brand's red is 6.5:1 (its hover shade, derived, 4.9:1).
    colorError: PALETTE.danger,
    // antd's greys for placeholders (select placeholders are text: 1.8:1), help and description text (3.4:1), and
    // its lighter blue for hovered primary buttons (4.3:1 under white text) are under 4.5:1 (axe, issue 19).
    colorTextPlaceholder: PALETTE.textSubtle,
    colorTextDescription: PALETTE.textSubtle,
    colorTextTertiary: PALETTE.textSubtle,
    colorPrimaryHover: PALETTE.primaryHover,
    colorPrimaryActive: PALETTE.primaryDeep,
    colorLinkHover: PALETTE.primaryHover,
    colorLinkActive: PALETTE.primaryDeep,
    ...tagTextTokens(),
  },
  components: {
    // Comfortable tap targets on phones.
    Button: { controlHeightLG: 48 },
    Input: { controlHeightLG: 48 },
    // An empty table's "No ... in this period" is written in colorTextDisabled (antd's 1.8:1 grey); it is a message,
    // not a disabled control, so it gets the readable grey (axe color-contrast, issue 19).
    Table: { colorTextDisabled: PALETTE.textSubtle },
  },
};
