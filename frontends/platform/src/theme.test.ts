import { BRAND_PRIMARY, cssVar, cssVarName, PALETTE, paletteCss, theme } from './theme';

describe('the palette', () => {
  test('CSS custom properties named after the palette', () => {
    expect(cssVarName('primary')).toBe('--tyres-color-primary');
    expect(cssVarName('primaryHover')).toBe('--tyres-color-primary-hover');
    expect(cssVarName('slate900')).toBe('--tyres-color-slate-900');
    expect(cssVar('textMuted')).toBe('var(--tyres-color-text-muted)');
  });

  test('paletteCss declares every colour once', () => {
    const css = paletteCss();
    expect(css.startsWith(':root {')).toBe(true);
    expect(css).toContain('--tyres-color-primary: #1d4ed8;');
    for (const color of Object.keys(PALETTE) as (keyof typeof PALETTE)[]) {
      expect(css.split(`${cssVarName(color)}:`)).toHaveLength(2);
    }
    expect(paletteCss('.site')).toMatch(/^\.site \{/);
  });

  test('antd takes its brand colour from the same palette', () => {
    expect(BRAND_PRIMARY).toBe('#1d4ed8');
    expect(theme.token?.colorPrimary).toBe(PALETTE.primary);
  });
});
