/**
 * `dumpsys activity activities` in the API 33–35 layout of fixtures/adb/dumpsys-activity-activities
 * (Task lines, topResumedActivity, `Resumed:`/`ResumedActivity:`, ActivityTaskSupervisor with
 * mCurrentFocus/mFocusedApp), and `dumpsys activity services <pkg>` as Appium's settings check reads it.
 */
import { type DeviceFacts, dpi, hashOf, shortComponent } from "./device_facts.ts";
import { taskId } from "./dumpsys_window.ts";

export function renderDumpsysActivities(f: DeviceFacts): string {
  const t = taskId(f);
  const comp = shortComponent(f.pkg, f.activity);
  const rec = `ActivityRecord{${hashOf("rec" + f.activity)} u0 ${comp} t${t}}`;
  const win = `Window{${hashOf("win" + f.activity)} u0 ${f.pkg}/${f.activity}}`;
  const lines = [
    "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
    "Display #0 (activities from top to bottom):",
    `  * Task{${
      hashOf("task" + f.pkg)
    } #${t} type=standard A=10214:${f.pkg} U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=1}`,
    "    mLastPausedActivity: null",
    "    isSleeping=false",
    `    topResumedActivity=${rec}`,
    `    * Hist  #0: ${rec}`,
    `      packageName=${f.pkg} processName=${f.pkg}`,
    "      launchedFromUid=2000 launchedFromPackage=com.android.shell launchedFromFeature=null userId=0",
    `      app=ProcessRecord{${hashOf("proc" + f.pkg)} 4311:${f.pkg}/u0a214}`,
    `      Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10000000 cmp=${comp} }`,
    `      rootOfTask=true task=Task{${hashOf("task" + f.pkg)} #${t} type=standard A=10214:${f.pkg}}`,
    `      mActivityComponent=${comp}`,
    `      compat={${dpi(f)}} theme=0x7f140026`,
    "",
    "  Resumed activities in task display areas (from top to bottom):",
    `    Resumed: ${rec}`,
    "",
    `  ResumedActivity: ${rec}`,
    "",
    "ActivityTaskSupervisor state:",
    `  topDisplayFocusedRootTask=Task{${hashOf("task" + f.pkg)} #${t} type=standard A=10214:${f.pkg}}`,
    "  Display: mDisplayId=0 (organized)",
    `    init=${f.width}x${f.height} ${dpi(f)} mMinSizeOfResizeableTaskDp=220 cur=${f.width}x${f.height} app=${f.width}x${f.height}`,
    "  mSleeping=false mAllSleepTokens=[]",
    `  mCurrentFocus=${win}`,
    `  mFocusedApp=${rec}`,
  ];
  return lines.join("\n") + "\n";
}

/** `dumpsys activity services PKG`: a running foreground service record for the package (Appium's settings
 * app check); a query naming another component (`PKG/.recorder.RecorderService`) finds nothing running. */
export function renderActivityServices(query: string | undefined): string {
  const header = "ACTIVITY MANAGER SERVICES (dumpsys activity services)";
  const [packageName, component] = (query ?? "").split("/");
  if (packageName === undefined || packageName === "" || (component !== undefined && component !== ".ForegroundService")) {
    return `${header}\n  (nothing)\n`;
  }
  const svc = `${packageName}/.ForegroundService`;
  return [
    header,
    "  User 0 active services:",
    `  * ServiceRecord{${hashOf("svc" + packageName)} u0 ${svc}}`,
    `    intent={cmp=${svc}}`,
    `    packageName=${packageName}`,
    `    processName=${packageName}`,
    `    app=ProcessRecord{${hashOf("proc" + packageName)} 5120:${packageName}/u0a190}`,
    "    isForeground=true foregroundId=1 foregroundNoti=Notification(channel=main_channel shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x62 color=0x00000000 vis=PRIVATE)",
    "    createTime=-1m2s118ms startingBgTimeout=--",
    "    lastActivity=-1m2s95ms restartTime=-1m2s95ms createdFromFg=true",
    "    startRequested=true delayedStop=false stopIfKilled=false callStart=true lastStartId=1",
    "",
  ].join("\n") + "\n";
}
