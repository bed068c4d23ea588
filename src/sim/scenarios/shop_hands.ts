/**
 * Built-in scenario "shop": an Android 15 (API 35) shop app where each of an agent's hands visibly matters:
 * a long-press menu on products, a double-tap that likes a product, a chip row that scrolls sideways, a
 * filter sheet with its own list over the scrolling page, search results (the products whose name holds the
 * query) only on the IME action, deep links to a product and the checkout, an order confirmation that arrives 3 s later, a cart drawer that
 * animates in, a shipped-order notification, the launcher on HOME and recents on APP_SWITCH. The user
 * starts signed in; `pm clear` signs them out, a force-stop does not.
 */
import type { NodeSpec, Scenario, TransitionSpec } from "../scenario/types.ts";
import { appWindow, PIXEL_API35, toolbar, WIDTH } from "./layout.ts";
import { SETTINGS_APP, withSettingsApps } from "./settings.ts";

const PKG = "com.example.shop";
const id = (name: string) => `${PKG}:id/${name}`;
type Bounds = NodeSpec["bounds"];

const PRODUCTS = [
  ["Canvas sneakers", "$59"],
  ["Rain jacket", "$89"],
  ["Wool beanie", "$19"],
  ["Leather wallet", "$45"],
  ["Running shorts", "$29"],
  ["Travel mug", "$15"],
  ["Yoga mat", "$35"],
  ["Desk lamp", "$42"],
  ["Sunglasses", "$65"],
  ["Water bottle", "$12"],
  ["Linen shirt", "$49"],
  ["Denim cap", "$22"],
  ["Hiking boots", "$129"],
  ["Trail socks", "$9"],
  ["Daypack", "$79"],
] as const;
const ROWS_PER_PART = 5;
const ROW_HEIGHT = 300;

function tabBar(selected: number): NodeSpec {
  const tabs = ["Home", "Search", "Account"];
  const w = WIDTH / tabs.length;
  return {
    class: "android.widget.LinearLayout",
    id: id("bottom_navigation"),
    bounds: [0, 2232, WIDTH, 2400],
    children: tabs.map((label, i) => ({
      class: "android.widget.FrameLayout",
      id: id(`tab_${label.toLowerCase()}`),
      desc: label,
      clickable: true,
      selected: i === selected,
      bounds: [Math.round(i * w), 2232, Math.round((i + 1) * w), 2400] as Bounds,
      children: [{
        class: "android.widget.TextView",
        text: label,
        bounds: [Math.round(i * w) + 60, 2330, Math.round((i + 1) * w) - 60, 2380] as Bounds,
      }],
    })),
  };
}

function shopToolbar(title: string, back: boolean): NodeSpec {
  const bar = toolbar(PKG, title, back);
  return {
    ...bar,
    children: [...(bar.children ?? []), {
      class: "android.widget.ImageButton",
      id: id("action_filters"),
      desc: "Filters",
      clickable: true,
      bounds: [720, 150, 840, 270],
    }, { class: "android.widget.ImageButton", id: id("action_cart"), desc: "Cart", clickable: true, bounds: [900, 150, 1020, 270] }],
  };
}

/** A product row: clickable (opens it) and long-clickable (its menu). */
function productRow(title: string, price: string, top: number): NodeSpec {
  return {
    class: "android.widget.LinearLayout",
    id: id("product_row"),
    clickable: true,
    longClickable: true,
    bounds: [0, top, WIDTH, top + ROW_HEIGHT - 20],
    children: [
      { class: "android.widget.ImageView", id: id("product_thumb"), desc: `${title} photo`, bounds: [42, top + 30, 262, top + 250] },
      { class: "android.widget.TextView", id: id("product_title"), text: title, bounds: [300, top + 60, 1017, top + 140] },
      { class: "android.widget.TextView", id: id("product_price"), text: price, bounds: [300, top + 160, 700, top + 230] },
    ],
  };
}

/** One part of the product list (the RecyclerView keeps only the rows on screen), from `top` to `bottom`. */
function productList(part: number, top: number, bottom: number): NodeSpec {
  const rows = PRODUCTS.slice(part * ROWS_PER_PART, (part + 1) * ROWS_PER_PART)
    .map(([title, price], i) => productRow(title, price, top + 20 + i * ROW_HEIGHT))
    .filter((row) => row.bounds[1] < bottom)
    .map((row) => ({ ...row, bounds: [row.bounds[0], row.bounds[1], row.bounds[2], Math.min(row.bounds[3], bottom)] as Bounds }));
  return {
    class: "androidx.recyclerview.widget.RecyclerView",
    id: id("product_list"),
    scrollable: true,
    focusable: true,
    bounds: [0, top, WIDTH, bottom],
    children: rows,
  };
}

const CHIPS = ["All", "Shoes", "Jackets", "Bags", "Hats", "Socks", "Sale"];

/** The category chips, scrolled to `offset` px: a chip partly off screen is clipped, one fully off is not there. */
function chipRow(offset: number): NodeSpec {
  const chips: NodeSpec[] = [];
  CHIPS.forEach((label, i) => {
    const left = 42 + i * 280 - offset;
    const right = left + 250;
    if (right <= 0 || left >= WIDTH) return;
    chips.push({
      class: "com.google.android.material.chip.Chip",
      id: id("chip"),
      text: label,
      checkable: true,
      checked: i === 0,
      clickable: true,
      bounds: [Math.max(0, left), 320, Math.min(WIDTH, right), 430],
    });
  });
  return { class: "android.widget.HorizontalScrollView", id: id("chips"), scrollable: true, bounds: [0, 300, WIDTH, 450], children: chips };
}

const CHIPS_END = 42 + CHIPS.length * 280 - 30 + 42 - WIDTH;

function home(part: number, chipOffset: number): NodeSpec {
  const withChips = part === 0;
  return appWindow([
    shopToolbar("Shop", false),
    ...(withChips ? [chipRow(chipOffset)] : []),
    productList(part, withChips ? 460 : 300, 2232),
    tabBar(0),
  ]);
}

/** A product's page (Canvas sneakers is product 42, Hiking boots product 13), liked or not. */
function product(title: string, price: string, liked: boolean): NodeSpec {
  return appWindow([
    toolbar(PKG, title, true),
    { class: "android.widget.ImageView", id: id("product_image"), desc: `${title} photo`, bounds: [0, 283, WIDTH, 1100] },
    { class: "android.widget.TextView", id: id("product_name"), text: title, bounds: [63, 1140, 800, 1230] },
    { class: "android.widget.TextView", id: id("product_price"), text: price, bounds: [63, 1240, 400, 1320] },
    {
      class: "android.widget.ToggleButton",
      id: id("favourite"),
      desc: "Favourite",
      text: liked ? "Liked" : "Like",
      checkable: true,
      checked: liked,
      clickable: true,
      bounds: [820, 1140, 1017, 1300],
    },
    {
      class: "android.widget.TextView",
      id: id("like_hint"),
      text: liked ? "In your favourites" : "Double-tap the photo to like it",
      bounds: [63, 1340, 1017, 1410],
    },
    { class: "android.widget.Button", id: id("add_to_cart"), text: "Add to cart", clickable: true, bounds: [63, 1460, 1017, 1610] },
  ]);
}

/** A product's context menu: its header names the product (set by the long press, `header` below), then its choices. */
const productMenu: NodeSpec = {
  class: "android.widget.FrameLayout",
  bounds: [340, 770, 1000, 1400],
  children: [{
    class: "android.widget.TextView",
    id: "android:id/alertTitle",
    bounds: [400, 790, 960, 880],
  }, {
    class: "android.widget.ListView",
    id: "android:id/list",
    bounds: [340, 900, 1000, 1400],
    children: ["Add to wishlist", "Share", "Hide"].map((label, i) => ({
      class: "android.widget.LinearLayout",
      clickable: true,
      bounds: [340, 920 + i * 150, 1000, 1070 + i * 150] as Bounds,
      children: [{
        class: "android.widget.TextView",
        id: "android:id/title",
        text: label,
        bounds: [400, 960 + i * 150, 960, 1030 + i * 150] as Bounds,
      }],
    })),
  }],
};

const FILTERS = ["Brand", "Size", "Colour", "Price", "Material", "Rating", "Delivery", "Discount", "Seller", "Style"];

/** The page behind (its list) and the filter sheet over its lower half with its own list. */
function filters(pagePart: number, sheetPart: number): NodeSpec {
  const options = FILTERS.slice(sheetPart * 5, sheetPart * 5 + 5).map((label, i): NodeSpec => ({
    class: "android.widget.CheckedTextView",
    id: id("filter_option"),
    text: label,
    checkable: true,
    clickable: true,
    bounds: [0, 1400 + i * 160, WIDTH, 1550 + i * 160],
  }));
  return appWindow([
    shopToolbar("Shop", false),
    productList(pagePart, 300, 2232),
    {
      class: "android.widget.FrameLayout",
      id: id("design_bottom_sheet"),
      clickable: true, // a modal sheet takes every touch on its surface (BottomSheetDialog consumes them): none falls through to a row
      bounds: [0, 1200, WIDTH, 2400],
      children: [
        { class: "android.widget.TextView", id: id("sheet_title"), text: "Filters", bounds: [63, 1230, 600, 1320] },
        { class: "android.widget.Button", id: id("apply_filters"), text: "Apply", clickable: true, bounds: [780, 1220, 1017, 1340] },
        {
          class: "androidx.recyclerview.widget.RecyclerView",
          id: id("sheet_list"),
          scrollable: true,
          bounds: [0, 1380, WIDTH, 2400],
          children: options,
        },
      ],
    },
  ]);
}

/**
 * The search page; with `results`, the list holds every product and the device keeps those whose name contains the
 * submitted query (the screen's `filter`), with "N results" above them or "No results for “…”" when none matches.
 */
const search = (results: boolean) =>
  appWindow([
    toolbar(PKG, "Search", true),
    { class: "android.widget.EditText", id: id("search_field"), hint: "Search products", bounds: [63, 300, 1017, 440] },
    ...(results
      ? [
        {
          class: "androidx.recyclerview.widget.RecyclerView",
          id: id("results"),
          bounds: [0, 460, WIDTH, 1500],
          children: [
            { class: "android.widget.TextView", id: id("results_count"), text: `${PRODUCTS.length} results`, bounds: [63, 480, 600, 550] },
            {
              class: "android.widget.TextView",
              id: id("results_empty"),
              text: "No results for \u201c{query}\u201d",
              bounds: [63, 480, 1017, 550],
            },
            ...PRODUCTS.map(([title, price], i) => productRow(title, price, 580 + i * ROW_HEIGHT)),
          ],
        } satisfies NodeSpec,
      ]
      : [
        {
          class: "android.widget.TextView",
          id: id("search_tip"),
          text: "Type a product and press search",
          bounds: [63, 480, 1017, 550],
        } satisfies NodeSpec,
      ]),
  ]);
const SEARCH_FILTER = {
  field: id("search_field"),
  row: id("product_row"),
  match: id("product_title"),
  count: id("results_count"),
  empty: id("results_empty"),
};

const login = appWindow([
  toolbar(PKG, "Sign in", false),
  { class: "android.widget.EditText", id: id("email"), hint: "Email", bounds: [63, 480, 1017, 640] },
  { class: "android.widget.EditText", id: id("password"), hint: "Password", password: true, bounds: [63, 680, 1017, 840] },
  { class: "android.widget.Button", id: id("sign_in"), text: "Sign in", clickable: true, bounds: [63, 1020, 1017, 1170] },
]);

const account = appWindow([
  toolbar(PKG, "Account", false),
  { class: "android.widget.TextView", id: id("greeting"), text: "Signed in as ada@example.com", bounds: [63, 340, 1017, 420] },
  tabBar(2),
]);

const checkout = appWindow([
  toolbar(PKG, "Checkout", true),
  { class: "android.widget.TextView", id: id("checkout_total"), text: "Total $59", bounds: [63, 340, 1017, 420] },
  { class: "android.widget.Button", id: id("place_order"), text: "Place order", clickable: true, bounds: [63, 500, 1017, 650] },
]);

const placing = appWindow([
  toolbar(PKG, "Checkout", true),
  { class: "android.widget.ProgressBar", id: id("progress"), bounds: [440, 900, 640, 1100] },
  { class: "android.widget.TextView", id: id("status"), text: "Placing your order", bounds: [63, 1140, 1017, 1220] },
]);

const placed = appWindow([
  toolbar(PKG, "Order #1042", true),
  { class: "android.widget.TextView", id: id("order_confirmed"), text: "Order confirmed", bounds: [63, 340, 1017, 420] },
  { class: "android.widget.TextView", id: id("status"), text: "Arrives Thursday", bounds: [63, 440, 1017, 520] },
]);

/**
 * The cart drawer sliding in from the right (`left` is its left edge, 1080 → 180 over the frames) in the page's
 * DrawerLayout: the page is its content view (first child), the drawer its end drawer, clickable so that a tap in it
 * stays in it (a drawer that is not passes the tap to the page behind). A tap on the scrim beside it closes it.
 */
function cart(left: number): NodeSpec {
  return appWindow([{
    class: "androidx.drawerlayout.widget.DrawerLayout",
    id: id("drawer_layout"),
    bounds: [0, 0, WIDTH, 2400],
    children: [
      {
        class: "android.widget.LinearLayout",
        id: id("page"),
        bounds: [0, 0, WIDTH, 2400],
        children: [shopToolbar("Shop", false), productList(0, 460, 2232)],
      },
      {
        class: "android.widget.FrameLayout",
        id: id("cart_drawer"),
        clickable: true,
        bounds: [left, 0, WIDTH, 2400],
        children: [
          { class: "android.widget.TextView", id: id("cart_title"), text: "Your cart", bounds: [left + 60, 160, WIDTH, 250] },
          { class: "android.widget.TextView", id: id("cart_empty"), text: "Your cart is empty", bounds: [left + 60, 300, WIDTH, 380] },
        ],
      },
    ],
  }]);
}
const CART_FRAMES = [900, 630, 400, 250, 190];
const CART_LEFT = 180;

const MAIN = "com.example.shop.MainActivity";
const HOME_PARTS = ["shop_home", "shop_home_2", "shop_home_3"];
const page = { resource_id: id("product_list") };

const transitions: TransitionSpec[] = [
  // The page's list (three parts), also from the chip-scrolled first part.
  { from: ["shop_home", "shop_home_chips"], on: "scroll_down", selector: page, to: "shop_home_2" },
  { from: "shop_home_2", on: "scroll_down", selector: page, to: "shop_home_3" },
  { from: "shop_home_3", on: "scroll_up", selector: page, to: "shop_home_2" },
  { from: "shop_home_2", on: "scroll_up", selector: page, to: "shop_home" },
  // The chip row scrolls sideways, on its own.
  { from: "shop_home", on: "scroll_right", selector: { resource_id: id("chips") }, to: "shop_home_chips" },
  { from: "shop_home_chips", on: "scroll_left", selector: { resource_id: id("chips") }, to: "shop_home" },
  // Long press on a product: its menu (a popup window); any choice closes it.
  {
    from: [...HOME_PARTS, "shop_home_chips", "search_results"],
    on: "long_press",
    selector: { resource_id: id("product_row") },
    to: "product_menu",
    header: { from: id("product_title"), into: "android:id/alertTitle" },
  },
  { from: "product_menu", on: "tap", selector: { resource_id: "android:id/title" }, to: "@back" },
  { from: [...HOME_PARTS, "shop_home_chips", "search_results"], on: "tap", selector: { text: "Canvas sneakers" }, to: "product_42" },
  { from: [...HOME_PARTS, "search_results"], on: "tap", selector: { text: "Hiking boots" }, to: "product_13" },
  // Double-tap on the photo likes the product (a single tap does nothing).
  { from: "product_42", on: "double_tap", selector: { resource_id: id("product_image") }, to: "product_42_liked", replace: true },
  { from: "product_13", on: "double_tap", selector: { resource_id: id("product_image") }, to: "product_13_liked", replace: true },
  { from: ["product_42", "product_42_liked"], on: "tap", selector: { text: "Add to cart" }, to: "checkout" },
  // Filters: the sheet's list and the page's list scroll apart.
  { from: [...HOME_PARTS, "shop_home_chips"], on: "tap", selector: { content_desc: "Filters" }, to: "filters" },
  { from: "filters", on: "scroll_down", selector: { resource_id: id("sheet_list") }, to: "filters_sheet_2" },
  { from: "filters_sheet_2", on: "scroll_up", selector: { resource_id: id("sheet_list") }, to: "filters" },
  { from: "filters", on: "scroll_down", selector: page, to: "filters_page_2" },
  { from: "filters_page_2", on: "scroll_up", selector: page, to: "filters" },
  { from: ["filters", "filters_sheet_2", "filters_page_2"], on: "tap", selector: { text: "Apply" }, to: "@back" },
  // Search: results appear only on the IME action (search / ENTER), not while typing.
  { from: [...HOME_PARTS, "shop_home_chips", "account"], on: "tap", selector: { content_desc: "Search" }, to: "search" },
  {
    from: ["search", "search_results"],
    on: "submit",
    selector: { resource_id: id("search_field") },
    ime_action: "search", // the field's imeOptions: actionSearch (ENTER submits too)
    to: "search_results",
    replace: true,
  },
  { from: [...HOME_PARTS, "shop_home_chips"], on: "tap", selector: { content_desc: "Account" }, to: "account" },
  { from: "account", on: "tap", selector: { content_desc: "Home" }, to: "@back" },
  { from: "shop_login", on: "tap", selector: { text: "Sign in" }, to: "shop_home", sets: "signed_in" },
  { from: "checkout", on: "tap", selector: { text: "Place order" }, to: "order_placing" },
  { from: [...HOME_PARTS, "shop_home_chips"], on: "tap", selector: { content_desc: "Cart" }, to: "cart_1" },
  { on: "tap", selector: { content_desc: "Navigate up" }, to: "@back" },
  ...SETTINGS_APP.transitions,
  { from: "launcher", on: "tap", selector: { content_desc: "Shop" }, to: "@launch:com.example.shop" },
  { from: "launcher", on: "tap", selector: { content_desc: "Settings" }, to: "@launch:com.android.settings" },
];

const screen = (root: NodeSpec, activity = MAIN) => ({ package: PKG, activity, root });

export const SHOP_SCENARIO: Scenario = {
  name: "shop",
  description:
    "Android 15 (API 35) shop app for every hand: long-press menu, double-tap like, sideways chips, a filter sheet over the page, " +
    "search on the IME action, deep links, a late order confirmation, an animated cart, a notification; starts signed in.",
  android: PIXEL_API35,
  home: "launcher",
  start: "shop_home",
  screens: {
    ...SETTINGS_APP.screens,
    launcher: {
      package: "com.google.android.apps.nexuslauncher",
      activity: "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
      root: appWindow([
        { class: "android.widget.TextView", text: "Shop", desc: "Shop", clickable: true, bounds: [60, 1900, 300, 2140] },
        { class: "android.widget.TextView", text: "Settings", desc: "Settings", clickable: true, bounds: [300, 1900, 540, 2140] },
      ]),
    },
    shop_home: screen(home(0, 0)),
    shop_home_chips: screen(home(0, CHIPS_END)),
    shop_home_2: screen(home(1, 0)),
    shop_home_3: screen(home(2, 0)),
    product_menu: screen(productMenu),
    product_42: screen(product("Canvas sneakers", "$59", false), "com.example.shop.ProductActivity"),
    product_42_liked: screen(product("Canvas sneakers", "$59", true), "com.example.shop.ProductActivity"),
    product_13: screen(product("Hiking boots", "$129", false), "com.example.shop.ProductActivity"),
    product_13_liked: screen(product("Hiking boots", "$129", true), "com.example.shop.ProductActivity"),
    filters: screen(filters(0, 0)),
    filters_sheet_2: screen(filters(0, 1)),
    filters_page_2: screen(filters(1, 0)),
    search: { ...screen(search(false), "com.example.shop.SearchActivity"), keyboard: { top: 1517, openOnEnter: true } },
    search_results: { ...screen(search(true), "com.example.shop.SearchActivity"), keyboard: { top: 1517 }, filter: SEARCH_FILTER },
    shop_login: { ...screen(login, "com.example.shop.LoginActivity"), keyboard: { top: 1517 } },
    account: screen(account),
    checkout: screen(checkout, "com.example.shop.CheckoutActivity"),
    order_placing: { ...screen(placing, "com.example.shop.CheckoutActivity"), after: { ms: 3000, to: "order_placed" } },
    order_placed: screen(placed, "com.example.shop.OrderActivity"),
    ...Object.fromEntries(CART_FRAMES.map((left, i) => {
      const next = i + 1 < CART_FRAMES.length ? `cart_${i + 2}` : "cart";
      return [`cart_${i + 1}`, { ...screen(cart(left)), after: { ms: 120, to: next } }];
    })),
    cart: screen(cart(CART_LEFT)),
  },
  packages: withSettingsApps([
    { name: PKG, screen: "shop_login", label: "Shop", data: ["signed_in"], launchWhen: [{ flag: "signed_in", screen: "shop_home" }] },
    SETTINGS_APP.package,
    { name: "com.google.android.apps.nexuslauncher", system: true, screen: "launcher", label: "Pixel Launcher" },
    { name: "com.android.systemui", system: true },
    { name: "com.google.android.inputmethod.latin", system: true },
  ]),
  links: [
    { prefix: "shop://product/42", screen: "product_42" },
    { prefix: "https://shop.example/product/42", screen: "product_42" },
    { prefix: "https://shop.example/checkout", screen: "checkout" },
  ],
  notifications: [{ package: PKG, title: "Your order has shipped", text: "Tap to see when it arrives", screen: "order_placed" }],
  transitions,
};
