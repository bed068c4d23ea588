/**
 * The server APKs carried inside the single executable: null here (Node, Deno, an npm install read them from the
 * `appium-uiautomator2-server` package). scripts/build-bin.mjs replaces this module with one that imports both
 * APKs as embedded files (`with { type: "file" }`: paths in Bun's `/$bunfs/`), which server_package.ts copies
 * to a cache folder on first use, since adb can only stream a file of the real file system.
 */
export const EMBEDDED_APKS: { server: string; test: string } | null = null;
