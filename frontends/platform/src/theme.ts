import type { ThemeConfig } from 'antd';

/** Brand colour shared by the public site's own CSS and antd's theme (dashboard). */
export const BRAND_PRIMARY = '#1d4ed8';

/** antd theme of the staff dashboard (the public site does not load antd at all). Type-only antd import. */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_PRIMARY,
    colorLink: BRAND_PRIMARY,
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
