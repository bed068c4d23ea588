/**
 * The one display as Android 15 on a Google emulator reports it: `dumpsys SurfaceFlinger --display-id`
 * (`Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"`), `cmd
 * display get-displays [-i]` (`Displays:` then `Display id 0: DisplayInfo{…, state ON, …, uniqueId
 * "local:…", …}, DisplayMetrics{…}, isValid=true`) and the `dumpsys display` lines clients read
 * (DisplayDeviceInfo, the INTERNAL DisplayViewport, `Display State=ON`). Sizes follow the rotation.
 */

/** The physical display id an API 34/35 emulator's first display has (SurfaceFlinger, `screencap -d`). */
export const PHYSICAL_DISPLAY_ID = "4619827259835644672";

export interface DisplayFacts {
  /** Natural (physical) size, as `wm size` prints it. */
  width: number;
  height: number;
  density: number;
  rotation: 0 | 1 | 2 | 3;
}

export function renderSurfaceFlingerDisplayIds(): string {
  return `Display ${PHYSICAL_DISPLAY_ID} (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n`;
}

function logicalSize(d: DisplayFacts): { w: number; h: number } {
  return d.rotation % 2 === 1 ? { w: d.height, h: d.width } : { w: d.width, h: d.height };
}

export function renderGetDisplays(d: DisplayFacts, idsOnly: boolean): string {
  if (idsOnly) return "0\n";
  const { w, h } = logicalSize(d);
  const scale = (d.density / 160).toString();
  const info =
    `DisplayInfo{"Built-in Screen", displayId 0, displayGroupId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, ` +
    `real ${w} x ${h}, largest app ${Math.max(w, h)} x ${Math.max(w, h) - 63}, smallest app ${Math.min(w, h)} x ${Math.min(w, h) - 63}, ` +
    `appVsyncOff 1000000, presDeadline 16666666, mode 1 60.0, defaultMode 1, userPreferredModeId -1, ` +
    `modes [{id=1, width=${d.width}, height=${d.height}, fps=60.0, vsync=60.0, synthetic=false, alternativeRefreshRates=[], supportedHdrTypes=[]}], ` +
    `hdrCapabilities HdrCapabilities{mSupportedHdrTypes=[], mMaxLuminance=500.0, mMaxAverageLuminance=500.0, mMinLuminance=0.0}, ` +
    `userDisabledHdrTypes [], minimalPostProcessingSupported false, rotation ${d.rotation}, state ON, committedState ON, type INTERNAL, ` +
    `uniqueId "local:${PHYSICAL_DISPLAY_ID}", app ${w} x ${h}, density ${d.density} (${d.density}.0 x ${d.density}.0) dpi, layerStack 0, ` +
    `colorMode 0, supportedColorModes [0], address {port=0, model=0x401cec6a7a2b7b}, deviceProductInfo DeviceProductInfo{name=EMU_display_0, ` +
    `manufacturerPnpId=GGL, productId=1, modelYear=null, manufactureDate=ManufactureDate{week=27, year=2006}, connectionToSinkType=0}, ` +
    `removeMode 0, refreshRateOverride 0.0, brightnessMinimum 0.0, brightnessMaximum 1.0, brightnessDefault 0.39763778, ` +
    `installOrientation ROTATION_0, layoutLimitedRefreshRate null, hdrSdrRatio NaN, thermalRefreshRateThrottling {}, thermalBrightnessThrottlingDataId default}`;
  const metrics =
    `DisplayMetrics{density=${scale}, width=${w}, height=${h}, scaledDensity=${scale}, xdpi=${d.density}.0, ydpi=${d.density}.0}`;
  return `Displays:\nDisplay id 0: ${info}, ${metrics}, isValid=true\n`;
}

export function renderDumpsysDisplay(d: DisplayFacts): string {
  const { w, h } = logicalSize(d);
  return [
    "DISPLAY MANAGER (dumpsys display)",
    "  mSafeMode=false",
    "  mPendingTraversal=false",
    `  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:${PHYSICAL_DISPLAY_ID}', ` +
    `physicalPort=0, orientation=${d.rotation}, logicalFrame=Rect(0, 0 - ${w}, ${h}), physicalFrame=Rect(0, 0 - ${w}, ${h}), ` +
    `deviceWidth=${w}, deviceHeight=${h}}]`,
    "",
    "Display Devices: size=1",
    `  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:${PHYSICAL_DISPLAY_ID}", ${d.width} x ${d.height}, modeId 1, ` +
    `density ${d.density}, ${d.density}.0 x ${d.density}.0 dpi, touch INTERNAL, rotation 0, type INTERNAL, ` +
    `address {port=0, model=0x401cec6a7a2b7b}, state ON, committedState ON, FLAG_ALLOWED_TO_BE_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, ` +
    "FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED}",
    "    mAdapter=LocalDisplayAdapter",
    `    mUniqueId=local:${PHYSICAL_DISPLAY_ID}`,
    `    mPhysicalDisplayId=${PHYSICAL_DISPLAY_ID}`,
    "",
    "Logical Displays: size=1",
    "  Display 0:",
    "    mDisplayId=0",
    `    mPrimaryDisplayDevice=Built-in Screen(local:${PHYSICAL_DISPLAY_ID})`,
    "    mIsEnabled=true",
    "",
    "Display Power Controller (0):",
    "  Display State=ON",
    "",
  ].join("\n");
}
