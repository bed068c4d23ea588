/**
 * The Android key codes (KeyEvent.KEYCODE_*) of the keys the harness presses through the UiDriver's
 * `pressKey` (`mobile: pressKey`): device_press's keys, and ENTER for ui_type_text's `submit: "enter"`.
 */
export const KEYCODES = { home: 3, back: 4, enter: 66, delete: 67, app_switch: 187 } as const;
