// `make apps`: builds the Vite example apps against the package as a user
// gets it. Packs pkg/ (after `make pkg`) with `npm pack` into target/apps/,
// then in each app: `npm ci` (the app's pinned lockfile), `npm install
// --no-save` of the tarball (so the app imports `citemark` from node_modules,
// not from this checkout, and its package.json and lockfile stay untouched),
// and `vite build` into the app's dist/. react-app (React 19) is built a
// second time in development mode (StrictMode runs effects twice) into
// dist-dev/; react18-app builds react-app's source with React 18, in
// development mode too.
//
//   node scripts/build-apps.mjs [svelte-app|react-app|react18-app ...]   (default: all)

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO } from "./serve.mjs";

export const APPS = ["svelte-app", "react-app", "react18-app"];

const npm = (args, cwd) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  }).toString();

const apps = process.argv.length > 2 ? process.argv.slice(2) : APPS;
const packDir = path.join(REPO, "target/apps");
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir, { recursive: true });
const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", packDir], path.join(REPO, "pkg")));
const tarball = path.join(packDir, packed.filename);
console.log(`packed ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes`);

for (const app of apps) {
  if (!APPS.includes(app)) throw new Error(`unknown app ${app} (known: ${APPS.join(", ")})`);
  const dir = path.join(REPO, "examples", app);
  const started = Date.now();
  npm(["ci"], dir);
  npm(["install", "--no-save", tarball], dir);
  execFileSync("npm", ["run", "--silent", "build"], { cwd: dir, stdio: "inherit" });
  if (app === "react-app") {
    execFileSync(path.join(dir, "node_modules/.bin/vite"), ["build", "--mode", "development", "--outDir", "dist-dev", "--logLevel", "warn"], {
      cwd: dir,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "development" },
    });
  }
  console.log(`${app}: built examples/${app}/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
