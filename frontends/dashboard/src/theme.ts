import type { ThemeConfig } from 'antd';
import { BRAND_PRIMARY } from '@tyres/platform';

/**
 * The dashboard's colours, written once. The brand colour is the platform's (frontends/platform/src/theme.ts, the
 * antd theme the shell applies); the rest are the dashboard's neutrals and status colours. dashboard.css reads them
 * as CSS variables (`var(--dash-primary)`, see paletteCss), charts and components from `palette`.
 */
export const palette = {
  primary: BRAND_PRIMARY,
  primaryDark: '#1e3a8a',
  primarySoft: '#eff6ff',
  primaryBorder: '#bfdbfe',
  primaryTint: '#f8fbff',
  primaryWash: '#e0e7ff',
  text: '#111827',
  textStrong: '#374151',
  textSecondary: '#4b5563',
  // 4.5:1 (WCAG AA) also on the blue tints of selected rows and cards (#6b7280 was 4.4:1 there).
  textMuted: '#5f6672',
  textFaint: '#9ca3af',
  surface: '#fff',
  surfaceSubtle: '#f9fafb',
  page: '#f3f4f6',
  border: '#e5e7eb',
  borderStrong: '#d1d5db',
  borderDashed: '#cbd5e1',
  success: '#16a34a',
  successText: '#15803d',
  successDark: '#166534',
  successSoft: '#dcfce7',
  successBorder: '#86efac',
  warning: '#f59e0b',
  warningText: '#b45309',
  warningDark: '#9a3412',
  warningSoft: '#fff7ed',
  warningBorder: '#fdba74',
  danger: '#dc2626',
  dangerText: '#b91c1c',
  dangerSoft: '#fef2f2',
  dangerBorder: '#fecaca',
} as const;

export type PaletteColour = keyof typeof palette;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `:root { --dash-primary: #1d4ed8; ... }`: injected once, before dashboard.css (which only uses the variables). */
export const paletteCss = `:root{${Object.entries(palette)
  .map(([name, value]) => `--dash-${kebab(name)}:${value}`)
  .join(';')}}`;

/**
 * antd component tokens of the dashboard, on top of the platform theme the shell provides (a nested ConfigProvider
 * merges them): what used to be `.ant-*` overrides in dashboard.css.
 */
export const dashboardTheme: ThemeConfig = {
  components: {
    // The form screens' cards (New Booking, New Invoice).
    Card: { borderRadiusLG: 12 },
  },
};
