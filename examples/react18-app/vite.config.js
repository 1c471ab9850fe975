// examples/react-app's source (its index.html and src/) built with this
// folder's React 18, so that one app is tested on React 18 and 19: `react`,
// `react-dom` and `citemark` imports (the app's, citemark/react's, the JSX
// runtime's) resolve as if from here, to this folder's node_modules.
import path from "node:path";
import react from "@vitejs/plugin-react";

const here = import.meta.dirname;

const fromHere = {
  name: "citemark-example:resolve-from-react18-app",
  enforce: "pre",
  resolveId(source, importer, options) {
    if (!/^(react|react-dom|citemark)(\/|$)/.test(source)) return null;
    return this.resolve(source, path.join(here, "vite.config.js"), { ...options, skipSelf: true });
  },
};

export default {
  root: path.join(here, "../react-app"),
  // Development React: StrictMode mounts, unmounts and mounts every effect again.
  mode: "development",
  define: { "process.env.NODE_ENV": JSON.stringify("development") },
  build: { outDir: path.join(here, "dist"), emptyOutDir: true },
  plugins: [fromHere, react()],
};
