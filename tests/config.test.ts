import assert from "node:assert/strict";
import { test } from "node:test";
import { CONFIG_DEFAULTS, loadConfig } from "../src/config.ts";
import { HarnessError } from "../src/errors.ts";

function failure(env: Record<string, string>, flags = {}): HarnessError {
  try {
    loadConfig(env, flags);
  } catch (error) {
    assert.ok(error instanceof HarnessError);
    return error;
  }
  assert.fail("expected the configuration to be refused");
}

test("defaults: the only online device, the direct backend (no Appium), 60 s idle, a warm session held 300 s, 50 s action (below the 60 s MCP clients commonly wait), evidence kept 14 days", () => {
  assert.deepEqual(loadConfig({}), {
    device: { kind: "auto" },
    appiumUrl: "http://127.0.0.1:4723",
    backend: "direct",
    flowIdleTimeoutSeconds: 60,
    warmIdleTimeoutSeconds: 300,
    actionTimeoutSeconds: 50,
    evidenceRetentionDays: 14,
    adb: {},
  });
  assert.equal(CONFIG_DEFAULTS.appiumUrl, "http://127.0.0.1:4723");
});

test("every variable is read, and empty values count as unset", () => {
  const config = loadConfig({
    ANDROID_UDID: "emulator-5556",
    APPIUM_URL: "http://grid:4444/wd/hub/",
    ANDROID_MCP_ARTIFACTS_DIR: "/tmp/ev",
    ANDROID_MCP_FLOW_IDLE_TIMEOUT: "30",
    ANDROID_MCP_WARM_IDLE_TIMEOUT: "0",
    ANDROID_MCP_ACTION_TIMEOUT: "3600",
    ADB: "/opt/adb",
    ANDROID_HOME: "/sdk",
    ADB_SERVER_SOCKET: "tcp:10.0.0.5:5037",
    ANDROID_MCP_EVIDENCE_RETENTION_DAYS: "0",
  });
  assert.deepEqual(config, {
    device: { kind: "udid", udid: "emulator-5556" },
    appiumUrl: "http://grid:4444/wd/hub",
    backend: "appium",
    artifactsDir: { path: "/tmp/ev", source: "ANDROID_MCP_ARTIFACTS_DIR" },
    flowIdleTimeoutSeconds: 30,
    warmIdleTimeoutSeconds: 0,
    actionTimeoutSeconds: 3600,
    evidenceRetentionDays: 0,
    adb: { path: "/opt/adb", androidHome: "/sdk", serverSocket: "tcp:10.0.0.5:5037" },
  });
  assert.deepEqual(loadConfig({ ANDROID_UDID: "", ANDROID_MCP_ACTION_TIMEOUT: " " }).device, { kind: "auto" });
  assert.equal(loadConfig({ APPIUM_URL: " " }).backend, "direct", "a blank APPIUM_URL is unset: the direct backend");
  assert.equal(loadConfig({}, { appiumUrl: "http://127.0.0.1:4723" }).backend, "appium", "--appium-url, even the old default");
  assert.deepEqual(loadConfig({ ADB_SERVER_SOCKET: "tcp:5038" }).adb, { serverSocket: "tcp:5038" });
});

test("the warm session's idle timeout: 0 to 3600 s from ANDROID_MCP_WARM_IDLE_TIMEOUT, --warm-idle-timeout winning; else refused", () => {
  assert.equal(loadConfig({ ANDROID_MCP_WARM_IDLE_TIMEOUT: "600" }).warmIdleTimeoutSeconds, 600);
  assert.equal(loadConfig({ ANDROID_MCP_WARM_IDLE_TIMEOUT: "600" }, { warmIdleTimeout: "5" }).warmIdleTimeoutSeconds, 5);
  assert.match(
    failure({ ANDROID_MCP_WARM_IDLE_TIMEOUT: "3601" }).message,
    /ANDROID_MCP_WARM_IDLE_TIMEOUT must be a whole number of seconds between 0/,
  );
  assert.match(failure({}, { warmIdleTimeout: "-1" }).message, /--warm-idle-timeout must be a whole number of seconds between 0/);
});

test("flags override the environment; --device sim selects the simulated device", () => {
  const config = loadConfig({ ANDROID_UDID: "emulator-5554", APPIUM_URL: "http://a:1", ANDROID_MCP_ARTIFACTS_DIR: "/env" }, {
    device: "sim",
    appiumUrl: "https://b:2",
    artifacts: "./mine",
  });
  assert.deepEqual(config.device, { kind: "sim" });
  assert.equal(config.appiumUrl, "https://b:2");
  assert.deepEqual(config.artifactsDir, { path: "./mine", source: "--artifacts" });
});

test("invalid values are refused with the variable, the accepted range and the value", () => {
  const error = failure({ ANDROID_MCP_ACTION_TIMEOUT: "abc" });
  assert.equal(error.code, "INVALID_ARGUMENT");
  assert.equal(error.message, 'ANDROID_MCP_ACTION_TIMEOUT must be a whole number of seconds between 1 and 3600, got "abc".');
  for (const bad of ["0", "3601", "1.5", "-3", "90s", "1e3"]) {
    assert.match(failure({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: bad }).message, /ANDROID_MCP_FLOW_IDLE_TIMEOUT must be a whole number/, bad);
  }
  assert.match(failure({ APPIUM_URL: "127.0.0.1:4723" }).message, /APPIUM_URL must be an http:\/\/ or https:\/\/ URL/);
  assert.match(failure({}, { appiumUrl: "ftp://x" }).message, /--appium-url must be/);
  assert.match(failure({ ANDROID_UDID: "emulator-5554; reboot" }).message, /ANDROID_UDID must be a device serial/);
  assert.match(failure({ ANDROID_UDID: "-s" }).message, /ANDROID_UDID/);
  assert.match(failure({ ADB_SERVER_SOCKET: "127.0.0.1:5037" }).message, /ADB_SERVER_SOCKET must look like tcp:HOST:PORT/);
  assert.match(failure({ ADB_SERVER_SOCKET: "tcp:127.0.0.1:70000" }).message, /ADB_SERVER_SOCKET/);
});

test("all problems are reported together", () => {
  const error = failure({ ANDROID_MCP_ACTION_TIMEOUT: "x", ANDROID_MCP_FLOW_IDLE_TIMEOUT: "y", APPIUM_URL: "z" });
  assert.equal((error.details?.["problems"] as string[]).length, 3);
});

test("ANDROID_MCP_ARTIFACTS_DIR is trimmed and blank is unset; a blank --artifacts is refused", () => {
  assert.equal(loadConfig({ ANDROID_MCP_ARTIFACTS_DIR: "   " }).artifactsDir, undefined);
  assert.deepEqual(loadConfig({ ANDROID_MCP_ARTIFACTS_DIR: " ev/out " }).artifactsDir, {
    path: "ev/out",
    source: "ANDROID_MCP_ARTIFACTS_DIR",
  });
  assert.deepEqual(loadConfig({ ANDROID_MCP_ARTIFACTS_DIR: "   " }, { artifacts: " ./flag " }).artifactsDir, {
    path: "./flag",
    source: "--artifacts",
  });
  assert.match(failure({}, { artifacts: "  " }).message, /--artifacts needs a directory path/);
});

test("ANDROID_ADB_SERVER_PORT names the local adb server (unless ADB_SERVER_SOCKET is set)", () => {
  assert.deepEqual(loadConfig({ ANDROID_ADB_SERVER_PORT: "5038" }).adb, { serverSocket: "tcp:127.0.0.1:5038" });
  assert.deepEqual(loadConfig({ ANDROID_ADB_SERVER_PORT: "5038", ADB_SERVER_SOCKET: "tcp:farm:5037" }).adb, {
    serverSocket: "tcp:farm:5037",
  });
  assert.match(failure({ ANDROID_ADB_SERVER_PORT: "x" }).message, /ANDROID_ADB_SERVER_PORT must be a port number/);
});

test("ANDROID_MCP_EVIDENCE_RETENTION_DAYS: whole days from 0 (keep forever) to 3650; anything else is refused", () => {
  assert.equal(loadConfig({ ANDROID_MCP_EVIDENCE_RETENTION_DAYS: "30" }).evidenceRetentionDays, 30);
  for (const bad of ["-1", "1.5", "two", "3651", "99999999999999999999"]) {
    const error = failure({ ANDROID_MCP_EVIDENCE_RETENTION_DAYS: bad });
    assert.match(
      error.message,
      new RegExp(
        `ANDROID_MCP_EVIDENCE_RETENTION_DAYS must be a whole number of days between 0 \\(keep forever\\) and 3650, got "${
          bad.replace(".", "\\.")
        }"`,
      ),
    );
  }
});
