/**
 * The two system screens the device draws over the tasks: recents (APP_SWITCH: one card per task, most recent
 * first, in the launcher's overview) and the notification shade (systemui: quick settings, then one row per
 * notification). Each is a generated screen plus what a tap on a card or row does, keyed by its content-desc.
 */
import type { AndroidSpec, NodeSpec, NotificationSpec, ScreenSpec } from "./types.ts";

export interface Overlay {
  id: "@recents" | "@shade";
  spec: ScreenSpec;
  /** What tapping the node with this content-desc (or a node inside it) does. */
  actions: Map<string, () => void>;
}

const SYSTEMUI = "com.android.systemui";
const CARD_WIDTH = 700;
const CARD_GAP = 60;

/** The overview: cards side by side from the centre, older ones to the left (off screen ones are not drawn). */
export function recentsScreen(tasks: { label: string; choose: () => void }[], launcher: string | null, android: AndroidSpec): Overlay {
  const pkg = launcher ?? SYSTEMUI;
  const { width: w, height: h } = android;
  const left = Math.round((w - CARD_WIDTH) / 2);
  const actions = new Map<string, () => void>();
  const children: NodeSpec[] = [];
  tasks.forEach((task, i) => {
    const x = left - i * (CARD_WIDTH + CARD_GAP);
    if (x + CARD_WIDTH <= 0) return;
    actions.set(task.label, task.choose);
    const clip = (v: number) => Math.max(0, Math.min(w, v));
    children.push({
      class: "android.widget.FrameLayout",
      id: `${pkg}:id/task`,
      desc: task.label,
      clickable: true,
      longClickable: true,
      bounds: [clip(x), 420, clip(x + CARD_WIDTH), 1900],
      children: [{
        class: "android.widget.TextView",
        id: `${pkg}:id/task_title`,
        text: task.label,
        bounds: [clip(x + 40), 300, clip(x + CARD_WIDTH - 40), 400],
      }],
    });
  });
  if (tasks.length === 0) children.push({ class: "android.widget.TextView", text: "No recent items", bounds: [240, 1140, w - 240, 1260] });
  else {
    children.push({
      class: "android.widget.Button",
      id: `${pkg}:id/clear_all`,
      text: "Clear all",
      clickable: true,
      bounds: [390, 2040, 690, 2160],
    });
  }
  return {
    id: "@recents",
    actions,
    spec: {
      package: pkg,
      activity: launcher === null ? `${SYSTEMUI}.recents.RecentsActivity` : "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
      root: {
        class: "android.widget.FrameLayout",
        bounds: [0, 0, w, h],
        children: [{ class: "androidx.recyclerview.widget.RecyclerView", id: `${pkg}:id/overview_panel`, bounds: [0, 0, w, h], children }],
      },
    },
  };
}

/** The shade: a quick-settings header, one expandable row per notification (its app, title and text), Manage / Clear all. */
export function notificationShade(
  notes: (NotificationSpec & { app: string })[],
  android: AndroidSpec,
  choose: (index: number) => void,
): Overlay {
  const { width: w, height: h } = android;
  const actions = new Map<string, () => void>();
  const rows: NodeSpec[] = notes.map((n, i) => {
    const top = 700 + i * 260;
    const desc = `${n.app} notification: ${n.title}`;
    actions.set(desc, () => choose(i));
    return {
      class: "android.widget.FrameLayout",
      id: `${SYSTEMUI}:id/expandableNotificationRow`,
      desc,
      clickable: true,
      bounds: [32, top, w - 32, top + 240],
      children: [
        { class: "android.widget.TextView", id: "android:id/app_name_text", text: n.app, bounds: [180, top + 30, 600, top + 80] },
        { class: "android.widget.TextView", id: "android:id/title", text: n.title, bounds: [180, top + 90, w - 80, top + 150] },
        { class: "android.widget.TextView", id: "android:id/text", text: n.text, bounds: [180, top + 160, w - 80, top + 215] },
      ],
    };
  });
  const bottom = 700 + notes.length * 260;
  const footer: NodeSpec[] = notes.length === 0
    ? [{
      class: "android.widget.TextView",
      id: `${SYSTEMUI}:id/no_notifications`,
      text: "No notifications",
      bounds: [240, 760, w - 240, 860],
    }]
    : [
      {
        class: "android.widget.Button",
        id: `${SYSTEMUI}:id/manage_text`,
        text: "Manage",
        clickable: true,
        bounds: [60, bottom + 40, 360, bottom + 150],
      },
      {
        class: "android.widget.Button",
        id: `${SYSTEMUI}:id/dismiss_text`,
        text: "Clear all",
        clickable: true,
        bounds: [w - 360, bottom + 40, w - 60, bottom + 150],
      },
    ];
  return {
    id: "@shade",
    actions,
    spec: {
      package: SYSTEMUI,
      activity: `${SYSTEMUI}.NotificationShade`,
      root: {
        class: "android.widget.FrameLayout",
        id: `${SYSTEMUI}:id/notification_panel`,
        bounds: [0, 0, w, h],
        children: [
          { class: "android.widget.TextView", id: `${SYSTEMUI}:id/clock`, text: "12:00", bounds: [60, 60, 300, 140] },
          {
            class: "android.widget.LinearLayout",
            id: `${SYSTEMUI}:id/quick_qs_panel`,
            bounds: [0, 200, w, 620],
            children: [
              {
                class: "android.widget.Switch",
                desc: "Internet",
                text: "Internet",
                checkable: true,
                checked: true,
                clickable: true,
                bounds: [40, 240, 530, 400],
              },
              {
                class: "android.widget.Switch",
                desc: "Bluetooth",
                text: "Bluetooth",
                checkable: true,
                checked: false,
                clickable: true,
                bounds: [550, 240, 1040, 400],
              },
            ],
          },
          ...rows,
          ...footer,
        ],
      },
    },
  };
}
