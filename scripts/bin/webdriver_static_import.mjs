/**
 * Bun.build (and esbuild) plugin: makes webdriverio's run-time `import(options.automationProtocol || "webdriver")`
 * static. In a single-file build there is no node_modules to resolve "webdriver" from, so `remote()` fails with
 * `Cannot find package 'webdriver'` although the bundle built fine. Every `import(<variable>)` of webdriverio's
 * node build becomes a lookup in the protocols imported statically here. Fails the build when webdriverio no
 * longer has the expected dynamic imports (an update changed them: check `remote()` still works).
 */
import { readFile } from "node:fs/promises";

/** The dynamic imports, with webdriverio's /* @vite-ignore *\/ comment, whose argument is an expression. */
const DYNAMIC_PROTOCOL_IMPORT = /await import\(\s*\/\* @vite-ignore \*\/\s*([^)]+?)\s*\)/g;
const EXPECTED_AT_LEAST = 3; // remote(), browser.reloadSession(), multiremote attach

export const webdriverStaticImport = {
  name: "webdriver-static-import",
  setup(build) {
    build.onLoad({ filter: /[\\/]webdriverio[\\/]build[\\/]node\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      let count = 0;
      const contents = source.replace(DYNAMIC_PROTOCOL_IMPORT, (_match, expression) => {
        count += 1;
        return `await __staticProtocol(${expression})`;
      });
      if (count < EXPECTED_AT_LEAST) {
        throw new Error(
          `webdriver-static-import: found ${count} dynamic protocol imports in ${args.path}, expected at least ${EXPECTED_AT_LEAST}; webdriverio changed, update the plugin`,
        );
      }
      const prelude = [
        'import * as __webdriverProtocol from "webdriver";',
        "async function __staticProtocol(name) {",
        '  if (name === "webdriver") return __webdriverProtocol;',
        '  throw new Error(`automation protocol "${name}" is not built into this executable (only "webdriver" is)`);',
        "}",
      ].join("\n");
      return { contents: `${prelude}\n${contents}`, loader: "js" };
    });
  },
};
