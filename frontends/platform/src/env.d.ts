/** Plain CSS files are imported as text (webpack asset/source) and injected with injectStyles. */
declare module '*.css' {
  const css: string;
  export default css;
}
