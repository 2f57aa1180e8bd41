/**
 * WCAG 2.1 AA contrast of the staff dashboard's antd theme (issue 19): the colours antd derives from the platform
 * theme (frontends/platform/src/theme.ts) for status tags and danger buttons reach 4.5:1 for their normal-size text.
 * axe-core checks the rendered screens end to end (test/e2e/accessibility.e2e.test.ts); this pins the tokens.
 */
import { theme as antdTheme } from 'antd';
import { TAG_TEXT_COLOURS, theme } from '../../frontends/platform/src/theme';

/** WCAG 2.x relative luminance of "#rrggbb" / "#rgb". */
function luminance(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/i.test(h)) throw new Error(`not an opaque hex colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const AA = 4.5;
const tokens = antdTheme.getDesignToken(theme) as unknown as Record<string, string>;
const PRESETS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
];

test('the contrast formula gives the known ratios', () => {
  expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrast('#fff', '#fff')).toBeCloseTo(1, 5);
  // What axe reported before the fix: antd's default red on white, green-7 on green-1.
  expect(contrast('#ff4d4f', '#ffffff')).toBeCloseTo(3.27, 2); // axe prints 3.26 (truncated)
  expect(contrast('#389e0d', '#f6ffed')).toBeCloseTo(3.37, 2);
});

describe("status tags: every preset colour's text on its own background", () => {
  test.each(PRESETS)('%s: text colour-7 on colour-1 is at least 4.5:1', (colour) => {
    const text = tokens[`${colour}7`]!;
    const background = tokens[`${colour}1`]!;
    expect(contrast(text, background)).toBeGreaterThanOrEqual(AA);
    // With CSS variables `green7` and the legacy `green-7` are one variable (--ant-green-7): both must agree.
    expect(tokens[`${colour}-7`]).toBe(text);
  });

  test('the darker tag text keeps its hue family (a darker step of the same antd palette)', () => {
    const { presetPalettes } = jest.requireActual<typeof import('@ant-design/colors')>('@ant-design/colors');
    for (const [name, value] of Object.entries(TAG_TEXT_COLOURS)) {
      const colour = name.replace(/7$/, '') as keyof typeof presetPalettes;
      expect(presetPalettes[colour]!.slice(7, 9)).toContain(value);
    }
  });
});

describe('danger buttons, links and form errors', () => {
  test('danger text (default and link danger buttons, form errors) on white', () => {
    expect(contrast(tokens.colorError!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(tokens.colorErrorText!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(tokens.colorErrorHover!, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(tokens.colorErrorActive!, '#ffffff')).toBeGreaterThanOrEqual(AA);
  });
  test('white text on primary danger buttons, also hovered and pressed', () => {
    for (const fill of [tokens.colorError!, tokens.colorErrorHover!, tokens.colorErrorActive!])
      expect(contrast(tokens.colorTextLightSolid!, fill)).toBeGreaterThanOrEqual(AA);
  });
  test('danger text on the light red background (error alerts, filled danger buttons)', () => {
    expect(contrast(tokens.colorError!, tokens.colorErrorBg!)).toBeGreaterThanOrEqual(AA);
  });
});

test('primary buttons and links', () => {
  expect(contrast(tokens.colorPrimary!, '#ffffff')).toBeGreaterThanOrEqual(AA);
  expect(contrast(tokens.colorLink!, '#ffffff')).toBeGreaterThanOrEqual(AA);
  expect(contrast(tokens.colorTextLightSolid!, tokens.colorPrimary!)).toBeGreaterThanOrEqual(AA);
});

test('hovered and pressed primary buttons keep white text at 4.5:1', () => {
  for (const fill of [tokens.colorPrimaryHover!, tokens.colorPrimaryActive!])
    expect(contrast(tokens.colorTextLightSolid!, fill)).toBeGreaterThanOrEqual(AA);
  expect(contrast(tokens.colorLinkHover!, '#ffffff')).toBeGreaterThanOrEqual(AA);
});

test('placeholders, help and description text on white, the page grey and a disabled field', () => {
  for (const name of ['colorTextPlaceholder', 'colorTextDescription', 'colorTextTertiary'])
    // A disabled field is rgba(0,0,0,0.04) on white: #f5f5f5.
    for (const background of ['#ffffff', '#f3f4f6', '#f5f5f5']) {
      const text = tokens[name]!;
      expect({ name, background, ok: contrast(text, background) >= AA }).toEqual({
        name,
        background,
        ok: true,
      });
    }
});

test("an empty table's message (antd writes it in the Table's colorTextDisabled) on white", () => {
  const tableDisabled = (theme.components?.Table as { colorTextDisabled?: string } | undefined)
    ?.colorTextDisabled;
  expect(contrast(tableDisabled ?? '#bfbfbf', '#ffffff')).toBeGreaterThanOrEqual(AA);
});
