/**
 * Bun.build plugin: turns `await import("./relative.ts")` in the harness's own sources into a static
 * namespace import. Under Node and Deno the dynamic import keeps the simulated device's code off a real
 * phone's start-up path; in the single executable everything is inside the file anyway, and Bun 1.4.5's
 * bundler mis-orders modules reachable both statically and through a dynamic import: zod (reached by the
 * sim and by the MCP SDK) was wrapped in a lazy initializer the SDK never called, and the binary died at
 * start with `undefined is not a constructor (evaluating 'new Class(…)')`. Package imports stay dynamic.
 */
import { readFile } from "node:fs/promises";

const RELATIVE_DYNAMIC_IMPORT = /\bawait import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

export const staticRelativeImports = {
  name: "static-relative-imports",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (source.match(RELATIVE_DYNAMIC_IMPORT) === null) return undefined; // match() ignores and resets lastIndex
      const names = new Map();
      const contents = source.replace(RELATIVE_DYNAMIC_IMPORT, (_match, specifier) => {
        if (!names.has(specifier)) names.set(specifier, `__staticImport${names.size}`);
        return `(${names.get(specifier)})`;
      });
      const header = [...names].map(([specifier, name]) => `import * as ${name} from ${JSON.stringify(specifier)};`).join("\n");
      // A shebang line (main.ts) must stay the file's first line.
      const shebang = contents.startsWith("#!") ? contents.slice(0, contents.indexOf("\n") + 1) : "";
      return { contents: `${shebang}${header}\n${contents.slice(shebang.length)}`, loader: "ts" };
    });
  },
};
