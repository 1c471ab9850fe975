// `import … from "react"` in the browser test: React 18's UMD build (loaded
// as a classic script before the modules) re-exported as an ES module.
const React = window.React;
export default React;
export const { Fragment, StrictMode, createElement, memo, useEffect, useLayoutEffect, useMemo, useRef, useState } = React;
