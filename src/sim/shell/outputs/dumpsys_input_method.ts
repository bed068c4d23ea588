/**
 * `dumpsys input_method` in the two real layouts of fixtures/adb/dumpsys-input-method: API 33 prints
 * `mShowRequested=… mShowExplicitlyRequested=… mShowForced=… mInputShown=…` on one line (MTK tablet
 * capture); API 35 prints `mRequestedShowExplicitly=… mShowForced=…` and `mInputShown=…` apart.
 */
import { type DeviceFacts, hashOf } from "./device_facts.ts";

const IME = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME";

export function renderDumpsysInputMethod(f: DeviceFacts): string {
  const shown = f.keyboard.open;
  const client = `ClientState{${hashOf("client" + f.pkg)} mUid=10214 mPid=4311 mSelfReportedDisplayId=0}`;
  const head = [
    "Current Input Method Manager state:",
    "  Input Methods: mMethodMapUpdateCount=2",
    `  InputMethod #0:`,
    `    mId=${IME} mSettingsActivityName=com.google.android.apps.inputmethod.latin.preference.SettingsActivity`,
    "  Clients:",
    `    Client ${client}:`,
    "      client=com.android.internal.inputmethod.IInputMethodClient$Stub$Proxy@b2c51b8",
    "  mCurrentUserId=0",
    `  mCurMethodId=${IME}`,
    `  mCurClient=${client} mCurSeq=9627`,
    `  mFocusedWindow()=android.os.BinderProxy@7702f31`,
    `  softInputMode=${shown ? "STATE_VISIBLE|ADJUST_RESIZE" : "STATE_UNSPECIFIED|ADJUST_NOTHING"}`,
    `  mCurId=${IME} mHaveConnection=true mBoundToMethod=true mVisibleBound=${shown}`,
    "  mCurToken=android.os.Binder@e9ad5ca",
    "  mCurTokenDisplayId=0",
    "  mCurMethod=com.android.server.inputmethod.IInputMethodInvoker@1c0ac1d",
  ];
  const state = f.api >= 34
    ? [
      `  mRequestedShowExplicitly=${shown} mShowForced=false`,
      "  mImeHiddenByDisplayPolicy=false",
      `  mInputShown=${shown}`,
      "  mInFullscreenMode=false",
      "  mSystemReady=true mInteractive=true",
    ]
    : [
      `  mShowRequested=${shown} mShowExplicitlyRequested=${shown} mShowForced=false mInputShown=${shown}`,
      "  mInFullscreenMode=false",
      "  mSystemReady=true mInteractive=true",
    ];
  const service = [
    "",
    `Input method service state for com.android.inputmethod.latin.LatinIME@${hashOf("latinime")}:`,
    `  mViewsCreated=true mDecorViewVisible=${shown} mDecorViewWasVisible=${shown} mWindowVisible=${shown} mInShowWindow=false`,
    `  mInputStarted=true mInputViewStarted=${shown} mCandidatesViewStarted=false`,
    `  mIsInputViewShown=${shown}`,
  ];
  return [...head, ...state, ...service].join("\n") + "\n";
}
