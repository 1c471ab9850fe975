// The declarations in pkg/src (types.d.ts, hydrate/svelte/react.d.ts, default/):
// strict TypeScript must accept types/usage.ts, an app's use of every entry
// point, including its @ts-expect-error lines (what the types must reject).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPO } from "./support/citemark.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

test("the declarations type an app's use of every entry point (tsc --strict)", async () => {
  const tsc = path.join(HERE, "node_modules/typescript/bin/tsc");
  const output = await new Promise((resolve) => {
    execFile(process.execPath, [tsc, "-p", path.join(HERE, "types/tsconfig.json")], (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, text: stdout + stderr }),
    );
  });
  assert.equal(output.code, 0, output.text);
});

test("the declarations never say `any`", () => {
  const dir = path.join(REPO, "pkg/src");
  const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".d.ts"));
  assert.ok(files.length >= 4, `declarations found: ${files}`);
  for (const file of files) {
    const code = readFileSync(path.join(dir, file), "utf8").replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "");
    assert.doesNotMatch(code, /\bany\b/, file);
  }
});
