/** The Appium side of the hands: the webdriverio UiDriverFactory and the failure translation. */
export { type AppiumDriverFactoryOptions, createAppiumDriverFactory } from "./webdriverio_driver.ts";
export { appiumFailure } from "./appium_failure.ts";
