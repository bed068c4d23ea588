import assert from "node:assert/strict";
import { test } from "node:test";
import { parseResumedActivity } from "../../src/adapters/adb/parse_activities.ts";
import { foregroundPackageOf, parseImeWindow, parseWindowFocus } from "../../src/adapters/adb/parse_dumpsys_window.ts";
import { parseInputShown } from "../../src/adapters/adb/parse_input_method.ts";
import { adbSamplesSkipReason, eachSample, sample } from "./fixture_files.ts";

const skip = adbSamplesSkipReason();

interface WindowWant {
  foreground: string | null;
  systemWindows?: string[];
  /** null: the sample has no InputMethod window block. */
  ime: { visible: boolean; packageName?: string } | null;
}

const WINDOW: Record<string, WindowWant> = {
  // Two displays: the cover screen's focus is null, the main one names the app.
  "displays-grep-focus-samsung-flip-cover-screen-multidisplay.txt": { foreground: "eu.niko.smart.universal", ime: null },
  // Asleep: the focused window is the shade (no app); the focused app is the camera.
  "dumpsys-window-full-mtk-tablet-android13-asleep-notificationshade.txt": {
    foreground: "com.mediatek.camera",
    systemWindows: ["NotificationShade"],
    ime: { visible: false, packageName: "com.android.inputmethod.latin" },
  },
  "window-InputMethod-pixel7-avd-gboard-visible-selected-lines.txt": { foreground: null, ime: { visible: true } },
  "windows-InputMethod-window-pixelxl-profile-ime-hidden-excerpt.txt": {
    foreground: null,
    ime: { visible: false, packageName: "com.google.android.inputmethod.latin" },
  },
  // API 29+ `dumpsys window windows` prints no focus lines.
  "windows-android11-appium-android-driver-fixture.txt": {
    foreground: null,
    ime: { visible: false, packageName: "com.google.android.inputmethod.latin" },
  },
  "windows-android12-appium-android-driver-fixture.txt": {
    foreground: null,
    ime: { visible: false, packageName: "com.android.inputmethod.latin" },
  },
  "windows-android13-appium-android-driver-fixture.txt": {
    foreground: null,
    ime: { visible: false, packageName: "com.google.android.inputmethod.latin" },
  },
  "windows-grep-focus-google-tv-launcher.txt": { foreground: "com.google.android.tvlauncher", ime: null },
  // A focused window titled with a bare package name wins over the focused app behind it.
  "windows-grep-focus-sony-tv-system-window-no-activity.txt": { foreground: "com.sony.dtv.sonysystemservice", ime: null },
  "windows-miui-android9-baidu-ime-login-activity.txt": {
    foreground: "com.xiaomi.account",
    ime: { visible: false, packageName: "com.baidu.input_mi" },
  },
  "windows-pixel-avd-api35plus-launcher-taskbar.txt": {
    foreground: null,
    ime: { visible: false, packageName: "com.google.android.inputmethod.latin" },
  },
  // vivo prints `Window{proc:hash u0 InputMethod type=2011 }`.
  "windows-vivo-api35-720x1612-gboard-ime-window-hidden.txt": {
    foreground: null,
    ime: { visible: false, packageName: "com.google.android.inputmethod.latin" },
  },
};

test("dumpsys window: foreground package and IME window of every real sample", { skip }, () => {
  eachSample("dumpsys-window", WINDOW, (text, want, name) => {
    const focus = parseWindowFocus(text);
    assert.equal(foregroundPackageOf(focus), want.foreground, `${name}: foreground`);
    assert.deepEqual(focus.systemWindows, want.systemWindows ?? [], `${name}: system windows`);
    const ime = parseImeWindow(text);
    assert.deepEqual(
      ime === null ? null : { visible: ime.visible, ...(ime.packageName ? { packageName: ime.packageName } : {}) },
      want.ime,
      `${name}: ime`,
    );
    // A hidden keyboard never reports a top, whatever stale insets the window keeps.
    if (ime !== null && !ime.visible) assert.equal(ime.top, undefined, `${name}: no top when hidden`);
  });
});

test("dumpsys window: the keyboard top is frame top + given content inset (matches the touchable region)", { skip }, () => {
  // The MIUI IME window: mFrame top 66, mGivenContentInsets top 1162, touchable region starts at 1228.
  const shown = sample("dumpsys-window", "windows-miui-android9-baidu-ime-login-activity.txt")
    .replace(/(Window #7 Window\{3792748 u0 InputMethod\}:[\s\S]*?)isVisible=false/, "$1isVisible=true");
  assert.deepEqual(parseImeWindow(shown), { visible: true, packageName: "com.baidu.input_mi", top: 1228 });
  // The Pixel 7 lines have no inset: visible, top unknown rather than guessed from the whole-screen frame.
  assert.equal(parseImeWindow(sample("dumpsys-window", "window-InputMethod-pixel7-avd-gboard-visible-selected-lines.txt"))?.top, undefined);
});

test("dumpsys window: the MTK brace quirk and the pre-29 AppWindowToken form name the app", { skip }, () => {
  const mtk = parseWindowFocus(sample("dumpsys-window", "dumpsys-window-full-mtk-tablet-android13-asleep-notificationshade.txt"));
  assert.deepEqual(mtk.focusedApps, [{ packageName: "com.mediatek.camera", className: "com.mediatek.camera.CameraLauncher" }]);
  const tv = parseWindowFocus(sample("dumpsys-window", "windows-grep-focus-sony-tv-system-window-no-activity.txt"));
  assert.deepEqual(tv.focusedApps, [{ packageName: "tunein.player", className: "tunein.ui.leanback.ui.activities.TvHomeActivity" }]);
});

const ACTIVITIES: Record<string, string> = {
  // Trusted Web Activity: Chrome's activity is on top, inside the app's task.
  "api37-chrome-twa-customtab-excerpt.txt": "com.android.chrome/org.chromium.chrome.browser.customtabs.CustomTabActivity",
  "firetv-api28-stack-format-excerpt.txt": "com.amazon.firetv.youtube/dev.cobalt.app.MainActivity",
  "google-apis-emulator-1080x2340-launcher-resumed.txt":
    "com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity",
  "grep-mResumedActivity-google-tv.txt": "com.google.android.tvlauncher/com.google.android.tvlauncher.MainActivity",
  "mtk-tablet-android13-asleep-camera-resumed-brace-quirk.txt": "com.mediatek.camera/com.mediatek.camera.CameraLauncher",
  "pixel-avd-api35plus-launcher-resumed.txt":
    "com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity",
  // The global ResumedActivity line sits under the empty Display #53 header; it is still the launcher.
  "samsung-oneui-1080x2340-launcher-resumed.txt": "com.sec.android.app.launcher/com.sec.android.app.launcher.activities.LauncherActivity",
};

test("dumpsys activity activities: the resumed activity of every real sample", { skip }, () => {
  eachSample("dumpsys-activity-activities", ACTIVITIES, (text, want, name) => {
    const app = parseResumedActivity(text);
    assert.equal(app === null ? null : `${app.packageName}/${app.className}`, want, name);
  });
});

const INPUT_METHOD: Record<string, boolean> = {
  "avd-api35-aosp-latinime-hidden-state-block-excerpt.txt": false,
  "mtk-tablet-android13-latinime-hidden-noninteractive.txt": false,
  "pixel7-avd-api35-gboard-shown-excerpt.txt": true,
};

test("dumpsys input_method: keyboard shown or hidden in every real sample (API 33 and 35 spellings)", { skip }, () => {
  eachSample("dumpsys-input-method", INPUT_METHOD, (text, want, name) => assert.equal(parseInputShown(text), want, name));
});

test("dumpsys input_method: an answer that does not say is unknown, not hidden", () => {
  assert.equal(parseInputShown("Current Input Method Manager state:\n"), null);
  assert.equal(parseInputShown("  mIsInputViewShown=true mStatusIcon=0\n"), true);
});
