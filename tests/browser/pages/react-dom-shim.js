// `import … from "react-dom"` in the browser test (see react-shim.js).
const ReactDOM = window.ReactDOM;
export default ReactDOM;
export const { createPortal, createRoot, flushSync } = ReactDOM;
