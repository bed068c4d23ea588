/**
 * The adb adapter's entry: the closed command list, the client, device selection, the observer and
 * the pure parsers (also used by `doctor` and the simulated device's tests).
 */
export { ADB_COMMANDS, type AdbCommand, type AdbCommandName, shellWord } from "./adb_commands.ts";
export { openLinkThroughAdb } from "./open_link.ts";
export { checkPackageName, checkSerial, isDeviceSerial } from "./adb_arguments.ts";
export { type AdbClient, type AdbClientOptions, createAdbClient } from "./adb_client.ts";
export { type AdbProgram, findAdbProgram } from "./adb_program.ts";
export { adbServerAddress, DEFAULT_ADB_SERVER } from "./adb_server_address.ts";
export { probeAdbServerAt, type ServerProbe } from "./adb_server_probe.ts";
export { chooseDevice, selectDevice } from "./select_device.ts";
export { type OnlineDevice, onlineDevices, resolveDevice } from "./resolve_device.ts";
export { type AdbObserverOptions, createAdbObserver } from "./observer.ts";
export { type ListedDevice, parseAdbDevices } from "./parse_devices.ts";
export { parseGetpropListing, parseGetpropValue } from "./parse_getprop.ts";
export { parseWmDensity, parseWmSize } from "./parse_wm.ts";
export { foregroundPackageOf, parseImeWindow, parseWindowFocus } from "./parse_dumpsys_window.ts";
export { parseInputShown } from "./parse_input_method.ts";
export { parseResumedActivity } from "./parse_activities.ts";
export { parsePackageList, parseResolvedActivity } from "./parse_packages.ts";
export { parseUiautomatorDump } from "./parse_uiautomator_dump.ts";
