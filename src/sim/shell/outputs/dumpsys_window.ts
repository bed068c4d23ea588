/**
 * `dumpsys window` in the format of the real captures in fixtures/adb/dumpsys-window: the
 * `WINDOW MANAGER WINDOWS` section (Window #N blocks; the InputMethod block carries
 * mGivenContentInsets, the touchable region, frame and isVisible) and the `DISPLAY CONTENTS` section
 * with mCurrentFocus / mFocusedApp (API 29+ prints them there). `dumpsys window <name>` prints one block.
 */
import { type DeviceFacts, dpi, hashOf, shortComponent } from "./device_facts.ts";

const STATUS_BAR = 136;

function appWindowTitle(f: DeviceFacts): string {
  return `${f.pkg}/${f.activity}`;
}

function record(f: DeviceFacts): string {
  return `ActivityRecord{${hashOf("rec" + f.activity)} u0 ${shortComponent(f.pkg, f.activity)} t${taskId(f)}}`;
}

export function taskId(f: DeviceFacts): number {
  return 10 + (parseInt(hashOf(f.pkg), 16) % 90);
}

function imeBlock(f: DeviceFacts, n: number): string[] {
  const { width: w, height: h } = f;
  const open = f.keyboard.open && f.keyboard.top !== undefined;
  const top = f.keyboard.top ?? Math.round(h * 0.63);
  return [
    `  Window #${n} Window{${hashOf("ime")} u0 InputMethod}:`,
    `    mDisplayId=0 rootTaskId=1 mSession=Session{${hashOf("imesession")} 1356:u0a10113} mClient=android.os.BinderProxy@821732e`,
    `    mOwnerUid=10113 showForAllUsers=false package=com.google.android.inputmethod.latin appop=NONE`,
    `    mAttrs={(0,0)(fillxfill) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan} ty=INPUT_METHOD fmt=TRANSPARENT wanim=0x1030056 receive insets ignoring z-order`,
    `      fl=NOT_FOCUSABLE LAYOUT_IN_SCREEN SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS`,
    `      pfl=USE_BLAST FIT_INSETS_CONTROLLED`,
    `      bhv=DEFAULT`,
    `      fitTypes=STATUS_BARS NAVIGATION_BARS`,
    `      fitSides=LEFT TOP RIGHT}`,
    `    Requested w=${w} h=${h} mLayoutSeq=92`,
    `    mIsImWindow=true mIsWallpaper=false mIsFloatingLayer=true`,
    `    mBaseLayer=131000 mSubLayer=0    mToken=WindowToken{ed6ff46 type=2011 android.os.Binder@1359f21}`,
    `    mViewVisibility=${open ? "0x0" : "0x8"} mHaveFrame=true mObscured=false`,
    `    mGivenContentInsets=[0,${top - STATUS_BAR}][0,0] mGivenVisibleInsets=[0,0][0,0]`,
    `    mTouchableInsets=3 mGivenInsetsPending=false`,
    `    touchable region=SkRegion((0,${top},${w},${h}))`,
    `    mHasSurface=${open} isReadyForDisplay()=${open} mWindowRemovalAllowed=false`,
    `    Frames: parent=[0,${STATUS_BAR}][${w},${h}] display=[0,${STATUS_BAR}][${w},${h}] frame=[0,${STATUS_BAR}][${w},${h}] last=[0,${STATUS_BAR}][${w},${h}] insetsChanged=false`,
    `     surface=[0,0][0,0]`,
    `    WindowStateAnimator{${hashOf("imeanim")} InputMethod}:`,
    `      mDrawState=${open ? "HAS_DRAWN" : "NO_SURFACE"}       mLastHidden=${!open}`,
    `      mShownAlpha=${open ? "1.0" : "0.0"} mAlpha=1.0 mLastAlpha=${open ? "1.0" : "0.0"}`,
    `    mForceSeamlesslyRotate=false seamlesslyRotate: pending=null    isOnScreen=${open}`,
    `    isVisible=${open}`,
    `    keepClearAreas: restricted=[], unrestricted=[]`,
  ];
}

function appBlock(f: DeviceFacts, n: number): string[] {
  const { width: w, height: h } = f;
  return [
    `  Window #${n} Window{${hashOf("win" + f.activity)} u0 ${appWindowTitle(f)}}:`,
    `    mDisplayId=0 rootTaskId=${taskId(f)} mSession=Session{${
      hashOf("session" + f.pkg)
    } 4311:u0a10214} mClient=android.os.BinderProxy@99f62a8`,
    `    mOwnerUid=10214 showForAllUsers=false package=${f.pkg} appop=NONE`,
    `    mAttrs={(0,0)(fillxfill) sim={adjust=resize forwardNavigation} ty=BASE_APPLICATION wanim=0x10302f4`,
    `      fl=LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS`,
    `      pfl=USE_BLAST FIT_INSETS_CONTROLLED`,
    `      bhv=DEFAULT}`,
    `    Requested w=${w} h=${h} mLayoutSeq=116`,
    `    mBaseLayer=21000 mSubLayer=0    mToken=${record(f)}`,
    `    mActivityRecord=${record(f)}`,
    `    mViewVisibility=0x0 mHaveFrame=true mObscured=false`,
    `    Frames: parent=[0,0][${w},${h}] display=[0,0][${w},${h}] frame=[0,0][${w},${h}] last=[0,0][${w},${h}] insetsChanged=false`,
    `    isOnScreen=true`,
    `    isVisible=true`,
  ];
}

function systemBlock(name: string, n: number, rect: [number, number, number, number]): string[] {
  return [
    `  Window #${n} Window{${hashOf(name)} u0 ${name}}:`,
    `    mDisplayId=0 rootTaskId=1 mSession=Session{${hashOf("systemui")} 1250:u0a10148} mClient=android.os.BinderProxy@4c2e1b0`,
    `    mOwnerUid=10148 showForAllUsers=true package=com.android.systemui appop=NONE`,
    `    Frames: parent=[${rect[0]},${rect[1]}][${rect[2]},${rect[3]}] display=[${rect[0]},${rect[1]}][${rect[2]},${rect[3]}] frame=[${
      rect[0]
    },${rect[1]}][${rect[2]},${rect[3]}]`,
    `    isOnScreen=true`,
    `    isVisible=true`,
  ];
}

export function windowsSection(f: DeviceFacts): string[] {
  const { width: w, height: h } = f;
  const blocks = [
    ...systemBlock("NavigationBar0", 0, [0, h - 63, w, h]),
    ...systemBlock("StatusBar", 1, [0, 0, w, STATUS_BAR]),
    ...imeBlock(f, 2),
    ...appBlock(f, 3),
  ];
  const win = `Window{${hashOf("win" + f.activity)} u0 ${appWindowTitle(f)}}`;
  return [
    "WINDOW MANAGER WINDOWS (dumpsys window windows)",
    ...blocks,
    "",
    "  mGlobalConfiguration={1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h914dp " + dpi(f) + " nrml long port finger qwerty/v/v dpad/v}",
    "  mHasPermanentDpad=false",
    "  mTopFocusedDisplayId=0",
    `  imeLayeringTarget in display# 0 ${win}`,
    `  imeInputTarget in display# 0 ${win}`,
    `  imeControlTarget in display# 0 ${win}`,
    "  Minimum task size of display#0 220  mInTouchMode=true",
    `  mInputMethodWindow=Window{${hashOf("ime")} u0 InputMethod}`,
    "  mSystemBooted=true mDisplayEnabled=true",
    "  Animation settings: disabled=false window=1.0 transition=1.0 animator=1.0",
  ];
}

export function displaysSection(f: DeviceFacts): string[] {
  const { width: w, height: h } = f;
  return [
    "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
    `  Display: mDisplayId=0 rootTasks=3`,
    `    init=${w}x${h} ${dpi(f)} mMinSizeOfResizeableTaskDp=220 cur=${w}x${h} app=${w}x${h - 63} rng=${w}x${w - 63}-${h}x${h - 63}`,
    "    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0," + w + "," + h + "))",
    "",
    "  mLayoutSeq=298",
    `  mCurrentFocus=Window{${hashOf("win" + f.activity)} u0 ${appWindowTitle(f)}}`,
    `  mFocusedApp=${record(f)}`,
    "",
    "  displayId=0",
  ];
}

const SEPARATOR = "-------------------------------------------------------------------------------";

/** `dumpsys window [section]`: whole dump, `windows`, `displays`, or one window by name (`InputMethod`). */
export function renderDumpsysWindow(f: DeviceFacts, args: string[]): string {
  const what = args[0];
  let lines: string[];
  if (what === undefined || what === "-a") {
    lines = [...windowsSection(f), SEPARATOR, ...displaysSection(f)];
  } else if (what === "windows" || what === "w") {
    lines = windowsSection(f);
  } else if (what === "displays" || what === "d") {
    lines = displaysSection(f);
  } else if (what === "InputMethod") {
    lines = imeBlock(f, 0);
  } else {
    lines = [];
  }
  return lines.join("\n") + "\n";
}
