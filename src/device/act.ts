/**
 * The pipeline every acting tool runs inside its operation (after runOperation's validate · lock ·
 * bind · deadline); an act tool is defined only through `defineActTool`, so none can skip it: take the
 * driver (the session the call names, from the operation context, or a temporary one), read the screen before,
 * act, read it once more and settle (settle.ts: that read is final when UiAutomator2 answered it within the
 * session's idle timeout or it shows only a flip; a confirming read only when the screen may still be moving),
 * with the device's facts read beside that read (one adb process; again beside the confirming read), and the keyboard's
 * state beside the read before the act for a tool that asks it (`asksKeyboard`), and answer the new screen summary
 * with `settled` and `changed`; once the screen is settled its evidence PNG is named in the answer and taken behind
 * it (the gate's `captureLater`: the next operation on the device waits for it), so the evidence is the answered
 * screen (an act that happened is answered ok also when its evidence cannot even be named: `evidence: null` and
 * `data.evidence_error`). A screen that offers nothing to read (no text, no action: a game, a canvas) is known by its
 * pixels: its PNG is taken before the answer, whose summary carries its fingerprint (src/png/fingerprint.ts). Also the
 * element wait of ui_tap / ui_type_text: poll the page source until the locator finds exactly one
 * element; a miss is UI_ELEMENT_NOT_FOUND with a screenshot of that moment, several UI_ELEMENT_AMBIGUOUS.
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import type { ErrorCode } from "../../contracts/error_codes.ts";
import type { EvidenceRef } from "../ports/evidence.ts";
import { HarnessError } from "../errors.ts";
import { screenFingerprint } from "../png/mod.ts";
import type { ToolInput, ToolName } from "../../contracts/tools.ts";
import type { WaitOptions } from "../ports/device.ts";
import type { OperationContext, ToolOutcome, ToolPorts } from "../ports/operation.ts";
import type { UiDriver } from "../ports/ui_driver.ts";
import type { UiOperation } from "../ports/ui_sessions.ts";
import {
  findElement,
  locate,
  type LocatedElement,
  parseDump,
  type ScreenSummary,
  type Selector,
  summaryFromCapture,
  type UiTree,
  underAnotherKey,
} from "../screen/mod.ts";
import { deviceOf } from "./device_handle.ts";
import { aroundDriver, type DriverCallKind, type DriverCallName } from "./driver_calls.ts";
import { xpathOf } from "./element_path.ts";
import { type ReadTimer, readTimer } from "./read_timer.ts";
import { attachMomentEvidence, captureScreenshotWith } from "./screenshot.ts";
import { confirmSettled, readIsFinal } from "./settle.ts";

export interface ActScope {
  driver: UiDriver;
  ports: ToolPorts;
  ctx: OperationContext;
  /**
   * The page source read before the act: `changed` and the settle compare with it. findInSession sets it to the
   * read it found the element in, so an element wait's earlier screens (a load that ended) do not count as the act's.
   */
  before: string;
  /** The act's page-source reads (read_timer.ts): the element wait starts another only if one as long as the
   * longest so far still leaves room for the answer. */
  reads: ReadTimer;
  wait(): WaitOptions;
  /**
   * Whether the soft keyboard is open on the screen `before` shows. A tool that declares `asksKeyboard` had it asked
   * beside the read before the act (one wait instead of two); after any other page source (an element wait's), it is
   * asked again.
   */
  keyboardShown(): Promise<boolean>;
}

/** What every act answers (contracts/tool_data.ts ACT_DATA_SHAPE), before what the act itself adds. */
export interface ActData {
  foreground_package: string;
  settled: boolean;
  changed: boolean;
  screen: ScreenSummary;
  /** Only when the act took place and its evidence could not be taken (the envelope's `evidence` is null). */
  evidence_error?: EvidenceError;
  /** Only when the warm UiAutomator2 session had ended (another client, its server gone) and was started again for it. */
  session_restarted?: string;
}

export interface ActToolOptions<N extends ToolName, E extends object, B = void> {
  /** Checks before any driver is taken (e.g. that the package is installed); what it answers goes to `act`. */
  before?(args: ToolInput<N>, ctx: OperationContext, ports: ToolPorts): Promise<B>;
  /** The act itself, inside the pipeline; answers what it adds to the act's data. */
  act(scope: ActScope, args: ToolInput<N>, prepared: B): Promise<E>;
  /** Runs after the act, also when it failed, with what `before` answered (e.g. removes a file it made). */
  release?(prepared: B): Promise<void>;
  /**
   * A visible change the page source does not show (the soft keyboard is another window), from what `act`
   * answered and the settled screen: `changed` is true when the source differs or this says so.
   */
  changedBeyondSource?(extra: E, screen: ScreenSummary): boolean;
  /** The act asks `scope.keyboardShown()` on the screen it acts on: asked beside the read before the act. */
  asksKeyboard?: boolean;
}

/** An act tool's handler: `before`, then `act` inside performAct. The handlers record checks its data against the declaration. */
export function defineActTool<N extends ToolName, E extends object, B = void>(name: N, options: ActToolOptions<N, E, B>) {
  return {
    name,
    pipeline: "act" as const,
    async run(args: ToolInput<N>, ctx: OperationContext, ports: ToolPorts): Promise<ToolOutcome<ActData & E>> {
      const prepared = (await options.before?.(args, ctx, ports)) as B;
      try {
        return await performAct(name, ctx, ports, (scope) => options.act(scope, args, prepared), options);
      } finally {
        await options.release?.(prepared);
      }
    },
  };
}

/** Runs `act` through the operation's device handle (the session the call names, else the warm driver), and answers the settled screen. */
function performAct<E extends object>(
  tool: string,
  ctx: OperationContext,
  ports: ToolPorts,
  act: (scope: ActScope) => Promise<E>,
  options: Pick<ActToolOptions<ToolName, E>, "changedBeyondSource" | "asksKeyboard">,
): Promise<ToolOutcome<ActData & E>> {
  const wait = (): WaitOptions => ({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
  let restarted: string | undefined;
  const op = { ...uiOperation(ctx), restarted: (why: string) => void (restarted = why) };
  return deviceOf(ctx).withDriver(op, async (session) => {
    let sourcesRead = 0;
    const driver = watchCalls(session, (name, kind) => {
      if (kind === "gesture") ctx.noteActed("sent");
      if (name === "source") sourcesRead++;
    });
    const reads = readTimer(ports.clock);
    const askKeyboard = () => checked(ctx, () => driver.isKeyboardShown());
    const readBefore = reads.time(() => checked(ctx, () => driver.source()));
    // The keyboard's state of the same moment, asked beside the read (the act awaits it only once it needs it).
    const keyboardBefore = options.asksKeyboard === true ? settledLater(askKeyboard()) : undefined;
    try {
      const before = await readBefore;
      const scope: ActScope = {
        driver,
        ports,
        ctx,
        before,
        reads,
        wait,
        // The early answer is of the first read's moment: after any other read (an element wait's), it is asked again.
        keyboardShown: () => keyboardBefore !== undefined && sourcesRead === 1 ? keyboardBefore.value() : askKeyboard(),
      };
      const extra = await act(scope);
      ctx.noteActed("done");
      const actedOn = scope.before;
      const after = await settleWithEvidence(tool, driver, ports, ctx, actedOn);
      return {
        data: {
          foreground_package: after.summary.foreground_package,
          settled: after.settled,
          changed: after.source !== actedOn || options.changedBeyondSource?.(extra, after.summary) === true,
          ...extra,
          screen: after.evidence.fingerprint === undefined ? after.summary : { ...after.summary, fingerprint: after.evidence.fingerprint },
          ...(after.evidence.error === null ? {} : { evidence_error: after.evidence.error }),
          ...(restarted === undefined ? {} : { session_restarted: restarted }),
        },
      };
    } finally {
      await keyboardBefore?.settled; // nothing the act started keeps running after it
    }
  });
}

/** A request started now and awaited later: `value()` answers it (or its failure); `settled` ends with it, never failing. */
function settledLater<T>(work: Promise<T>): { value(): Promise<T>; settled: Promise<void> } {
  const settled = work.then(() => {}, () => {});
  return { value: () => work, settled };
}

interface SettledMoment {
  source: string;
  settled: boolean;
  summary: ScreenSummary;
  evidence: TakenEvidence;
}

/**
 * The first read after the act, then the summary beside a confirming read when settle.ts does not take the first
 * read as final (a screen that changed after it is summarized again from its settled read); once the screen is
 * settled its evidence capture starts behind the answer (`ctx.captureLater`), beside the summary's device facts.
 */
async function settleWithEvidence(
  tool: string,
  driver: UiDriver,
  ports: ToolPorts,
  ctx: OperationContext,
  before: string,
): Promise<SettledMoment> {
  const wait = (): WaitOptions => ({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
  const read = () => checked(ctx, () => driver.source());
  const startedAt = ports.clock.now();
  // The device's facts beside the read, as ui_get_tree reads them: the moment the read shows, one wait instead of two.
  const [firstRead, context] = await allOrFirstError(
    read().then((source) => ({ source, tookMs: ports.clock.now() - startedAt })),
    ports.observer.screenContext(wait()),
  );
  const first = firstRead.source;
  if (readIsFinal(before, firstRead, driver.idleTimeoutMs)) {
    const summary = summaryFromCapture({ xml: first, ...context }).summary;
    return { source: first, settled: true, summary, evidence: await actEvidence(tool, ports, ctx, summary) };
  }
  // Not final: the UI may have moved during the read, so the facts are read again beside the confirming reads.
  const [summarized, confirmed] = await allOrFirstError(summaryOf(first, ports, wait()), confirmSettled(firstRead, read, ports, ctx));
  const summary = confirmed.source === first ? summarized : await summaryOf(confirmed.source, ports, wait());
  return { source: confirmed.source, settled: confirmed.settled, summary, evidence: await actEvidence(tool, ports, ctx, summary) };
}

/** The driver, telling `onCall` before each call goes to the device (from a gesture on, the act may have taken place). */
function watchCalls(driver: UiDriver, onCall: (name: DriverCallName, kind: DriverCallKind) => void): UiDriver {
  return aroundDriver(() => driver, (name, kind, run) => {
    onCall(name, kind);
    return run(driver);
  });
}

/** Both results once both are done; the first failure once both are done (nothing keeps running after the act). */
async function allOrFirstError<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === "rejected") throw ra.reason;
  if (rb.status === "rejected") throw rb.reason;
  return [ra.value, rb.value];
}

/** Why an act that took place has no evidence (`data.evidence_error`): said so that no agent repeats the act. */
export interface EvidenceError {
  code: ErrorCode;
  message: string;
}

interface TakenEvidence {
  saved: EvidenceRef | null;
  error: EvidenceError | null;
  /** The evidence's fingerprint (the summary's `fingerprint`), made while the file is written. */
  fingerprint?: string;
}

/**
 * The act's evidence PNG, named now and taken behind the answer (the screen is settled): its id is reserved in the
 * store and the gate runs the capture after the answer went (a capture that fails is said in the next answer on
 * the device). A screen with nothing to read is the exception: its PNG is taken now, for the fingerprint. Only a reservation that fails (an artifacts directory that cannot be written) is said in this
 * answer: `evidence: null` and `data.evidence_error`, never ok:false, which an agent would retry.
 */
async function actEvidence(tool: string, ports: ToolPorts, ctx: OperationContext, summary: ScreenSummary): Promise<TakenEvidence> {
  const wait = (): WaitOptions => ({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
  try {
    if (summary.texts.length === 0 && summary.actions.length === 0) {
      // Nothing on the screen to read (a game, a canvas): its fingerprint is what tells it apart, so its PNG is taken
      // before the answer and the summary carries the fingerprint.
      const { shot, alongside: fingerprint } = await captureScreenshotWith(ports.observer, ports.evidence, tool, wait(), screenFingerprint);
      ctx.attachEvidence(shot.evidence);
      return { saved: shot.evidence, error: null, fingerprint };
    }
    if (ctx.signal.aborted) throw ctx.signal.reason; // no placeholder that no answer would name
    const reserved = await ports.evidence.reservePng(tool);
    ctx.captureLater(reserved, async (wait) => {
      await ports.evidence.savePngAs(reserved, ports.observer.screenshot(wait)); // a failed capture removes its placeholder
    });
    return { saved: reserved, error: null };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof HarnessError)) throw error;
    return {
      saved: null,
      error: {
        code: error.code,
        message: `The ${tool} act took place; do not repeat it. Only its evidence screenshot is missing: ${error.message}`,
      },
    };
  }
}

export function uiOperation(ctx: OperationContext): UiOperation {
  return { operationId: ctx.operationId, signal: ctx.signal, remainingMs: ctx.remainingMs, progress: ctx.progress };
}

/** The summary of a page source read through a session, with the device's geometry, keyboard and foreground from adb. */
export async function summaryOf(source: string, ports: ToolPorts, wait: WaitOptions): Promise<ScreenSummary> {
  const context = await ports.observer.screenContext(wait);
  return summaryFromCapture({ xml: source, ...context }).summary;
}

export interface FoundElement {
  tree: UiTree;
  element: LocatedElement;
  /** Its id in the Appium session, checked to be at the node's bounds. */
  elementId: string;
}

/**
 * Waits (ACT_DEFAULTS.elementWaitMs, within the deadline) for the selector to name exactly one element
 * in the session's page source, then finds it in the session by its XPath and its rectangle (one request).
 */
export async function findInSession(scope: ActScope, selector: Selector, tool: string): Promise<FoundElement> {
  const { driver, ports, ctx } = scope;
  const started = ports.clock.now();
  // A find from the root waits for idle as a page source does, so a look is its read and its find (timed apart).
  const finds = readTimer(ports.clock);
  let source = scope.before;
  for (;;) {
    const tree = parseDump(source);
    const result = findElement(tree, selector);
    if (result.status === "found") {
      const elementId = await finds.time(() => sessionElement(driver, tree, result.element));
      if (elementId !== null) {
        scope.before = source; // the screen the act is done on
        return { tree, element: result.element, elementId };
      }
    } else if (result.status === "ambiguous") {
      locate(tree, selector); // throws UI_ELEMENT_AMBIGUOUS with the candidates
    }
    const waited = ports.clock.now() - started;
    // Another look only within the element wait, and only if a read and a find as long as the longest so far leave
    // 2 s of the call's time limit for the answer (the miss's screenshot, or the act, its settle and evidence).
    const room = scope.reads.fits(ctx.remainingMs(), 2000, ACT_DEFAULTS.pollIntervalMs + finds.longestMs());
    // The words are on the screen under another key: the answer already knows the selector to send, so it comes now.
    const knownElsewhere = result.status === "not_found" && result.matched === undefined && underAnotherKey(tree, selector) !== null;
    if (waited + ACT_DEFAULTS.pollIntervalMs > ACT_DEFAULTS.elementWaitMs || !room || knownElsewhere) {
      await attachMomentEvidence(ports, ctx, tool, scope.wait());
      if (result.status === "found") {
        throw new HarnessError(
          "UI_ELEMENT_NOT_FOUND",
          `The element ${JSON.stringify(selector)} kept moving while it was looked up in the UI session (${
            Math.round(waited)
          } ms); read the screen again and retry.`,
          { selector },
        );
      }
      locate(tree, selector, { waitedMs: waited }); // throws UI_ELEMENT_NOT_FOUND: "The screen offers: …"
    }
    await ports.clock.sleep(ACT_DEFAULTS.pollIntervalMs, ctx.signal);
    source = await scope.reads.time(() => checked(ctx, () => driver.source()));
  }
}

/**
 * The session's element at the node's XPath, if its rectangle is still the node's (else null: the screen moved).
 * The rectangle check is part of the find, in the same request: the XPath asks for the node's exact `bounds`
 * attribute (UiAutomator2's XPath runs over the same dump as its page source), so a node that moved, or another
 * node at that place, finds nothing. A node without bounds is found by its path alone.
 */
async function sessionElement(driver: UiDriver, tree: UiTree, element: LocatedElement): Promise<string | null> {
  const b = element.node.bounds;
  const at = b === null ? "" : `[@bounds="[${b.left},${b.top}][${b.right},${b.bottom}]"]`;
  const ids = await driver.findElements(`${xpathOf(tree, element.node)}${at}`);
  return ids.length === 1 ? ids[0]! : null;
}

/** Runs a driver call unless the operation was already abandoned (a late answer must not act after the timeout). */
export async function checked<T>(ctx: OperationContext, work: () => Promise<T>): Promise<T> {
  if (ctx.signal.aborted) throw ctx.signal.reason;
  const value = await work();
  if (ctx.signal.aborted) throw ctx.signal.reason;
  return value;
}
