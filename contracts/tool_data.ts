/**
 * The `data` of every tool's successful envelope as zod schemas: the screen summary of SPEC §5, what an
 * act answers around it, and the pieces the tool declarations in tools.ts combine. Handlers are typed
 * by these (src/ports/operation.ts); tools/list publishes them inside each tool's output schema.
 */
import * as z from "zod";
import { ERROR_CODE_LIST } from "./error_codes.ts";
import { ROLE_NAMES, TEXT_KEY_NAMES } from "./selector.ts";

type TextKeyFields = Record<(typeof TEXT_KEY_NAMES)[number], z.ZodOptional<z.ZodString>>;
const keyFields = {
  ...(Object.fromEntries(TEXT_KEY_NAMES.map((key) => [key, z.string().optional()])) as TextKeyFields),
  role: z.enum(ROLE_NAMES).optional(),
};

/** A selector as the summary writes it (SelectorSchema in selector.ts validates the ones sent). */
export const SelectorDataSchema = z.object({ ...keyFields, within: z.object(keyFields).optional(), index: z.int().min(0).optional() });

const pixels = z.number();

export const ActionEntrySchema = z.object({
  selector: SelectorDataSchema,
  label: z.string().optional(),
  role: z.enum(["input", "toggle"]).optional(),
  long_press: z.literal(true).optional(),
  enabled: z.literal(false).optional(),
  checked: z.literal(true).optional(),
  selected: z.literal(true).optional(),
  focused: z.literal(true).optional(),
  /** A password field: its text is never shown; at most its length. */
  password: z.literal(true).optional(),
  text_length: z.int().min(0).optional(),
  bounds: z.tuple([pixels, pixels, pixels, pixels]),
  covered_by_keyboard: z.literal(true).optional(),
  /** The label of what is drawn over the element where a tap lands; ui_tap refuses it until that is gone. */
  covered_by: z.string().optional(),
});

export const AuditIssueSchema = z.object({
  issue: z.enum(["off_screen", "zero_area", "touch_target_too_small"]),
  selector: SelectorDataSchema,
  size_px: z.tuple([pixels, pixels]).optional(),
  minimum_px: pixels.optional(),
});

/** The screen summary (src/screen/types.ts ScreenSummary; docs/screen-model.md says what each absence means). */
export const ScreenSummarySchema = z.object({
  foreground_package: z.string(),
  texts: z.array(z.string()),
  actions: z.array(ActionEntrySchema),
  can_scroll: z.literal(true).optional(),
  scroll_areas: z.array(z.object({
    selector: SelectorDataSchema,
    axis: z.literal("horizontal").optional(),
    label: z.string().optional(),
  })).optional(),
  keyboard: z.object({ open: z.literal(true), top: pixels.optional() }).optional(),
  issues: z.array(AuditIssueSchema).optional(),
  /** Only where the answer took a screenshot (an act's evidence): the screen's brightness grid, 80 hex digits. */
  fingerprint: z.string().optional(),
});

export const DeviceStatusDataSchema = z.object({
  udid: z.string(),
  online: z.boolean(),
  model: z.string(),
  api_level: z.int(),
  screen: z.object({ width: pixels, height: pixels, density: z.number() }),
  foreground_package: z.string(),
  keyboard_open: z.boolean(),
  simulated: z.literal(true).optional(),
  /** The online devices (issue 26), and the one a call without `device` uses (null: several online and none bound). */
  devices: z.array(z.object({ udid: z.string(), model: z.string() })),
  default_device: z.string().nullable(),
});

/** A code of the closed list (error_codes.ts); catalog.json's `error_codes` lists them with their meaning. */
export const ErrorCodeSchema = z.enum(ERROR_CODE_LIST);

/** Why an act that took place has no evidence PNG (device/act.ts): answered ok, so that no agent repeats the act. */
export const EvidenceErrorSchema = z.object({ code: ErrorCodeSchema, message: z.string() });

/**
 * What every act answers (device/act.ts): the new screen, whether it settled and whether it changed, and
 * `evidence_error` only when the act took place but its evidence could not be taken (`evidence: null`).
 */
export const ACT_DATA_SHAPE = {
  foreground_package: z.string(),
  settled: z.boolean(),
  changed: z.boolean(),
  screen: ScreenSummarySchema,
  evidence_error: EvidenceErrorSchema.optional(),
  /** Only when the device's warm UiAutomator2 session had ended (another client ended it, its server exited) and was
   * started again, once, for this act: why. */
  session_restarted: z.string().optional(),
};

/** An act's data: the shape every act answers plus what this act adds. */
export function actData<S extends z.ZodRawShape>(extra: S) {
  return z.object({ ...ACT_DATA_SHAPE, ...extra });
}

export const SessionInfoShape = {
  session_id: z.string(),
  expires_at: z.string(),
  idle_timeout_s: z.number(),
  max_actions: z.int(),
  actions_used: z.int(),
};

/**
 * Shapes that more than one tool answers, each said once in tools/list (docs/contract.md "Size"): the output
 * schema of the tool named `describedBy` describes it in full; every other tool's names it `elsewhere`, a
 * closed object with its keys (`keys`) or its bare JSON type (`type`), so that the screen summary is not
 * repeated in ui_wait and the nine act tools. The error codes are listed by catalog.json's `error_codes`.
 */
export const SHARED_SHAPES = [
  { id: "screen", schema: ScreenSummarySchema, describedBy: "ui_get_tree", elsewhere: "keys" },
  { id: "action", schema: ActionEntrySchema, describedBy: "ui_get_tree", elsewhere: "type" },
  { id: "selector", schema: SelectorDataSchema, describedBy: "ui_get_tree", elsewhere: "type" },
  { id: "error_code", schema: ErrorCodeSchema, describedBy: null, elsewhere: "type" },
] as const;
