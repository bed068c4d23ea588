/**
 * Splits a device shell command line the way /system/bin/sh would for the simple forms adb clients
 * send: words with '…', "…" and backslash quoting (exec-out quotes every argument), commands joined by
 * `;`, `&&` or `||`, trailing `| grep [-i -E -v -c] PATTERN` filters, stdout sent to a file (`> PATH`, `>> PATH`:
 * `redirect`), other redirections dropped (`2>/dev/null`, `> /dev/null`, a lone `2>` with the word after it).
 * Anything fancier is taken literally.
 * A grep whose -E pattern does not compile answers toybox's `grep: bad regex '…'` with exit 2. An unquoted word
 * holding `*`, `?` or `[` is a glob, as sh reads it: replaced by the device's files it matches (`glob`), if any.
 */

export interface SimpleCommand {
  argv: string[];
  /** Joiner before this command: the first is ";". */
  joiner: ";" | "&&" | "||";
  /** `| grep` filters applied to stdout, in order. */
  greps: { pattern: string; ignoreCase: boolean; regex: boolean; invert: boolean; count: boolean }[];
  /** `> PATH` or `>> PATH` (append) on stdout, a path other than /dev/null: the shell writes the output there. */
  redirect?: { path: string; append: boolean };
}

type Token = { word: string; glob?: boolean } | { op: ";" | "&&" | "||" | "|" };

function lex(line: string): Token[] {
  const tokens: Token[] = [];
  let word = "";
  let inWord = false;
  let glob = false;
  const flush = () => {
    if (inWord) tokens.push(glob ? { word, glob } : { word });
    word = "";
    inWord = false;
    glob = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += end === -1 ? line.slice(i + 1) : line.slice(i + 1, end);
      inWord = true;
      i = end === -1 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] === "\\" && j + 1 < line.length) j++;
        word += line[j];
        j++;
      }
      inWord = true;
      i = j;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      flush();
    } else if (c === ";") {
      flush();
      tokens.push({ op: ";" });
    } else if ((c === "&" || c === "|") && line[i + 1] === c) {
      flush();
      tokens.push({ op: c === "&" ? "&&" : "||" });
      i++;
    } else if (c === "|") {
      flush();
      tokens.push({ op: "|" });
    } else {
      if (c === "*" || c === "?" || c === "[") glob = true;
      word += c;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

/** The paths a glob pattern matches (sorted), none when nothing does; a relative pattern is relative to `/` (adb shell's). */
export function globPaths(pattern: string, paths: Iterable<string>): string[] {
  const absolute = pattern.startsWith("/");
  const wanted = pattern.replace(/\/+/g, "/");
  let source = "";
  for (let i = 0; i < wanted.length; i++) {
    const c = wanted[i]!;
    const close = c === "[" ? wanted.indexOf("]", i + 2) : -1;
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (close !== -1) {
      const set = wanted.slice(i + 1, close);
      source += `[${set.startsWith("!") ? `^${set.slice(1)}` : set}]`.replace(/\\/g, "\\\\");
      i = close;
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  let re: RegExp;
  try {
    re = new RegExp(`^${source}$`);
  } catch {
    return []; // a bracket sh reads literally (e.g. a reversed range): no match, the word stays
  }
  return [...paths].map((p) => (absolute ? p : p.replace(/^\/+/, ""))).filter((p) => re.test(p)).sort();
}

export function parseCommandLine(line: string, glob?: (pattern: string) => string[]): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { argv: [], joiner: ";", greps: [] };
  let piping: string[] | null = null;
  const finishPipe = () => {
    if (piping === null) return;
    const flags = piping.filter((a) => /^-\w+$/.test(a)).join("");
    const pattern = piping.slice(1).find((a) => !/^-\w+$/.test(a));
    if (piping[0] === "grep" && pattern !== undefined) {
      const has = (f: string) => flags.includes(f);
      current.greps.push({ pattern, ignoreCase: has("i"), regex: has("E"), invert: has("v"), count: has("c") });
    }
    piping = null;
  };
  let redirectTarget: { stdout: boolean; append: boolean } | null = null;
  const redirect = (how: { stdout: boolean; append: boolean }, path: string) => {
    if (how.stdout && path !== "/dev/null" && !path.startsWith("&")) current.redirect = { path, append: how.append };
  };
  for (const token of lex(line)) {
    if ("word" in token) {
      if (redirectTarget !== null) {
        redirect(redirectTarget, token.word);
        redirectTarget = null;
        continue;
      }
      const operator = /^(\d?|&)(>>?)(.*)$/.exec(token.word);
      if (operator !== null) {
        const how = { stdout: operator[1] === "" || operator[1] === "1", append: operator[2] === ">>" };
        if (operator[3] === "") redirectTarget = how;
        else redirect(how, operator[3]!);
        continue;
      }
      const matched = token.glob === true && glob !== undefined ? glob(token.word) : [];
      (piping ?? current.argv).push(...(matched.length > 0 ? matched : [token.word]));
    } else if (token.op === "|") {
      finishPipe();
      piping = [];
    } else {
      finishPipe();
      if (current.argv.length > 0) commands.push(current);
      current = { argv: [], joiner: token.op, greps: [] };
    }
  }
  finishPipe();
  if (current.argv.length > 0) commands.push(current);
  return commands;
}

export type GrepResult = { ok: true; text: string } | { ok: false; error: string };

/** Runs the filters in order; a bad -E pattern stops with grep's own error (exit 2 for the caller). */
export function applyGreps(text: string, greps: SimpleCommand["greps"]): GrepResult {
  let out = text;
  for (const g of greps) {
    let re: RegExp | null = null;
    if (g.regex) {
      try {
        re = new RegExp(g.pattern, g.ignoreCase ? "i" : "");
      } catch (error) {
        const reason = String((error as Error).message).split(": ").at(-1) ?? "invalid pattern";
        return { ok: false, error: `grep: bad regex '${g.pattern}': ${reason}\n` };
      }
    }
    const needle = g.ignoreCase ? g.pattern.toLowerCase() : g.pattern;
    const kept = out.split("\n").filter((line, i, all) =>
      (i < all.length - 1 || line !== "") &&
      (re !== null ? re.test(line) : (g.ignoreCase ? line.toLowerCase() : line).includes(needle)) !== g.invert
    );
    out = g.count ? `${kept.length}\n` : kept.map((l) => l + "\n").join("");
  }
  return { ok: true, text: out };
}
