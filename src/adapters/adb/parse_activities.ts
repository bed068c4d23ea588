/**
 * Parses `dumpsys activity activities`: the resumed activity at the top. Prefers the first
 * `topResumedActivity=` (display 0 comes first), then the global `ResumedActivity:`, then the older
 * `mResumedActivity:`; handles the `} tNN}` brace quirk and 7–9 character hashes. Pure.
 */
import { type AppComponent, componentOfActivityRecord } from "./component_token.ts";
import { toLines } from "./text_lines.ts";

export function parseResumedActivity(text: string): AppComponent | null {
  const lines = toLines(text);
  for (const key of [/^\s*topResumedActivity=(.*)$/, /^\s*ResumedActivity: (.*)$/, /^\s*mResumedActivity: (.*)$/]) {
    for (const line of lines) {
      const match = key.exec(line);
      if (match === null) continue;
      const app = componentOfActivityRecord(match[1]!);
      if (app !== null) return app;
    }
  }
  return null;
}
