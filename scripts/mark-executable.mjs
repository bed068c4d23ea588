// After tsc: the package's bin (dist/src/main.js, which starts with #!/usr/bin/env node) must be executable,
// or `npx android-mcp-harness` in a fresh clone answers "Permission denied" (tsc writes files 0644).
import { chmodSync, readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
for (const bin of Object.values(pkg.bin)) chmodSync(new URL(`../${bin}`, import.meta.url), 0o755);
