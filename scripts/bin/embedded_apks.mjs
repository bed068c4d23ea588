/**
 * Bun.build plugin: the single executable carries the UiAutomator2 server's two APKs (issue 24: one download is
 * still the whole install). `src/adapters/uia2_direct/embedded_apks.ts` (null under Node and Deno) is replaced by
 * a module that imports both APKs of the installed `appium-uiautomator2-server` package as embedded files
 * (`with { type: "file" }`: Bun puts them in the binary and gives their `/$bunfs/` paths); server_package.ts copies
 * them to the user's cache folder on the first act, for adb to stream.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export function embeddedApks(root) {
  const require = createRequire(join(root, "package.json"));
  const apks = join(dirname(require.resolve("appium-uiautomator2-server/package.json")), "apks");
  const { version } = require("appium-uiautomator2-server/package.json");
  const server = join(apks, `appium-uiautomator2-server-v${version}.apk`);
  const test = join(apks, "appium-uiautomator2-server-debug-androidTest.apk");
  return {
    name: "embedded-apks",
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]adapters[\\/]uia2_direct[\\/]embedded_apks\.ts$/ }, () => ({
        contents: [
          `import server from ${JSON.stringify(server)} with { type: "file" };`,
          `import test from ${JSON.stringify(test)} with { type: "file" };`,
          "export const EMBEDDED_APKS = { server, test };",
        ].join("\n"),
        loader: "ts",
      }));
    },
  };
}
