// Types for `citemark/lite`: the same API as `citemark`; rawHtml "sanitize" escapes.
export * from "./index.js";
