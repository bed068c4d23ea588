/**
 * The direct backend's entry (loaded by the composition module on the first UI session without an Appium URL):
 * the driver factory over the harness's own on-device UiAutomator2 server, its progress steps, and the server
 * package's facts (names, version, APK files) that doctor and the single executable use.
 */
export { createDirectDriverFactory, type DirectDriverFactory, type DirectDriverFactoryOptions } from "./direct_driver_factory.ts";
export type { StartProgress } from "./device_server.ts";
export {
  apkCacheDirectory,
  INSTRUMENTATION,
  packagedServerApks,
  packagedServerApksWithSizes,
  SERVER_PACKAGE,
  SERVER_VERSION,
  type ServerApks,
  serverApksIn,
  TEST_PACKAGE,
  uninstallCommand,
} from "./server_package.ts";
