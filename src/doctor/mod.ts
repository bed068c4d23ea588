/**
 * `doctor` (SPEC §9): the eight checks in their printed order, the runner that runs them all at once
 * under their timeouts, and the text rendering. The CLI command and the MCP resource `doctor://report`
 * both call `runDoctor(DOCTOR_CHECKS, inputs)`.
 */
import { adbCheck } from "./check_adb.ts";
import { androidSdkCheck } from "./check_android_sdk.ts";
import { appiumCheck } from "./check_appium.ts";
import { artifactsCheck } from "./check_artifacts.ts";
import { deviceCheck } from "./check_device.ts";
import { javaCheck } from "./check_java.ts";
import { runtimeCheck } from "./check_runtime.ts";
import { uiautomator2Check } from "./check_uiautomator2.ts";
import type { DoctorCheck } from "./types.ts";

export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  runtimeCheck,
  javaCheck,
  adbCheck,
  androidSdkCheck,
  deviceCheck,
  appiumCheck,
  uiautomator2Check,
  artifactsCheck,
];

export { renderReport } from "./render_report.ts";
export { DEFAULT_CHECK_TIMEOUT_MS, runDoctor } from "./run_doctor.ts";
export type { CheckId, CheckResult, DoctorCheck, DoctorInputs, DoctorPorts, DoctorReport } from "./types.ts";
