/** The Appium side of the hands: the UiDriverFactory (one W3C session each) and the failure translation. */
export { type AppiumDriverFactoryOptions, createAppiumDriverFactory } from "./webdriverio_driver.ts";
export { appiumFailure } from "./appium_failure.ts";
