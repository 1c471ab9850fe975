// `make test-node`: packs pkg/ with `npm pack`, installs the tarball into a
// scratch project under target/node-test/ (with this folder's pinned test
// dependencies), copies the tests there and runs `node --test` in it, so the
// tests import `citemark` exactly as a user's project would.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const work = join(repo, "target", "node-test");
const app = join(work, "app");
const npm = (args, cwd) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, stdio: ["ignore", "pipe", "inherit"] }).toString();

rmSync(work, { recursive: true, force: true });
mkdirSync(app, { recursive: true });
const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", work], join(repo, "pkg")));
console.log(`packed ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes`);
for (const file of readdirSync(here)) {
  if (file === "node_modules" || file === "run.mjs") continue;
  cpSync(join(here, file), join(app, file), { recursive: true });
}
npm(["ci"], app);
npm(["install", "--no-save", join(work, packed.filename)], app);
const tests = readdirSync(app).filter((f) => /\.test\.(mjs|cjs)$/.test(f)).sort();
try {
  execFileSync(process.execPath, ["--test", ...tests], {
    cwd: app,
    stdio: "inherit",
    env: { ...process.env, CITEMARK_REPO: repo },
  });
} catch (e) {
  process.exit(e.status ?? 1);
}
