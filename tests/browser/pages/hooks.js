// Loaded first on the XSS page, as a classic script: every way a payload
// announces itself records into window.__xss instead. The hooks cannot be
// replaced or deleted by a payload (non-writable, non-configurable).
(() => {
  const hits = [];
  const record = (what) =>
    function (...args) {
      hits.push(`${what}(${args.map((a) => String(a).slice(0, 80)).join(", ")})`);
    };
  const lock = (object, name, value) =>
    Object.defineProperty(object, name, { value, writable: false, configurable: false });
  lock(window, "__xss", hits);
  for (const name of ["alert", "confirm", "prompt", "print", "open"]) lock(window, name, record(name));
  for (const name of ["log", "info", "warn", "error", "debug", "trace"]) lock(console, name, record(`console.${name}`));
  lock(document, "write", record("document.write"));
  lock(document, "writeln", record("document.writeln"));
  // A global flag setter, for payloads that assign rather than call.
  let flag;
  Object.defineProperty(window, "xss", {
    get: () => flag,
    set: (value) => {
      flag = value;
      hits.push(`window.xss = ${String(value).slice(0, 80)}`);
    },
    configurable: false,
  });
})();
