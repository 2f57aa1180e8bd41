// The theme lives in @tyres/platform so that the dashboard frame and any remote use the same one.
export { BRAND_PRIMARY, theme } from '@tyres/platform/theme';
