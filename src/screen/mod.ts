/**
 * The screen model's public face (pure functions, no I/O): parse a dump, summarize it, locate an element,
 * render the summary as text, and read size/keyboard from a dump offline. Other folders import from here,
 * never from the files behind it, except validate_selector.ts (it loads zod, which `tree --file` does not).
 */
export { MAX_DUMP_BYTES, MAX_DUMP_DEPTH, parseDump } from "./parse_dump.ts";
export { maskPasswordText } from "./password_fields.ts";
export { summarize, summarizeWithNodes } from "./summarize.ts";
export {
  type Candidate,
  coveredBy,
  drawerCover,
  findElement,
  type FindResult,
  locate,
  type LocatedElement,
  saidCover,
  saidOffer,
  underAnotherKey,
} from "./locate.ts";
export { renderSummaryText } from "./render_text.ts";
export { keyboardInDump, screenSizeOf } from "./screen_geometry.ts";
export { captureContext, type ScreenReadingInput, summaryFromCapture, summaryFromXml } from "./summary_from_xml.ts";
export { MIN_TOUCH_DP, minimumTouchPx } from "./audit.ts";
export { coveredByOpenDrawer } from "./occlusion.ts";
export { scrollContainerOf, type ScrollDirection } from "./scroll_areas.ts";
export type * from "./types.ts";
