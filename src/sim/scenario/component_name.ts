/**
 * Android component names as the platform prints them: `ComponentName.flattenToShortString()` writes
 * `pkg/.Rest` when the class starts with `pkg.` and `pkg/full.Class` otherwise. Used by the shell
 * outputs that name an activity (`cmd package resolve-activity --brief`, `am start -W`'s `Activity:`).
 */

/** The full class name of an activity given as `.Short` or fully qualified. */
export function fullClassName(packageName: string, activity: string): string {
  return activity.startsWith(".") ? packageName + activity : activity;
}

/** `pkg/.Rest` when the class is inside the package, else `pkg/full.Class` (AOSP flattenToShortString). */
export function shortComponent(packageName: string, activity: string): string {
  const full = fullClassName(packageName, activity);
  return full.startsWith(packageName + ".") ? `${packageName}/${full.slice(packageName.length)}` : `${packageName}/${full}`;
}
