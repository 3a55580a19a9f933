// Small helpers to build the page's elements and speak through its live regions.
import { t } from "./i18n.js";

let lastId = 0;

/** A fresh id for tying a label to its control. */
export function uid(prefix) {
  lastId += 1;
  return `${prefix}-${lastId}`;
}

/** An element with attributes (`on…` are listeners) and children (strings or nodes). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "value") el.value = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A labelled control: the label's `for` names the control. */
export function field(label, control, hint) {
  control.id ||= uid("field");
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control,
    hint ? h("small", {}, hint) : null);
}

/** A <select> of [value, text] pairs. */
export function select(options, selected, attrs = {}) {
  const el = h("select", attrs,
    options.map(([value, text]) => h("option", { value: String(value) }, text)));
  if (selected !== undefined && selected !== null) el.value = String(selected);
  return el;
}

/** Radio buttons shown as chips, in a fieldset; arrow keys move between them. An
 * option may carry a third item, a class for its chip (a colour, a die). */
export function chips(legend, name, options, selected, onchange, attrs = {}) {
  const group = uid(name);
  return h("fieldset", { class: "chips", ...attrs }, h("legend", {}, legend),
    options.map(([value, text, look]) => h("label", { class: look ? `chip ${look}` : "chip" },
      h("input", {
        type: "radio", name: group, value: String(value),
        checked: String(value) === String(selected),
        onchange: () => onchange(value),
      }),
      h("span", {}, text))));
}

/** A checkbox shown as a chip that stays pressed: Joker, STOP, Replay. */
export function toggle(text, onchange) {
  return h("label", { class: "chip toggle" },
    h("input", { type: "checkbox", onchange: (event) => onchange(event.target.checked) }),
    h("span", {}, text));
}

export function button(text, onclick, attrs = {}) {
  return h("button", { type: "button", onclick, ...attrs }, text);
}

/** Why the service refused, in its words and with the ruling it names; or that it
 * could not be reached. */
function refusalText(error) {
  const heading = error.unreachable ? t("refusal.unreachable")
    : error.rule ? t("refusal.ruled", { rule: error.rule }) : t("refusal.plain");
  return [h("strong", {}, heading),
    h("span", {}, " "), h("span", { class: "detail" }, error.message)];
}

/** A refusal to draw beside the control that was tapped; announced as it appears. */
export function refusalBox(error) {
  return h("div", { class: "refusal", role: "alert", "aria-live": "assertive" },
    refusalText(error));
}

/** A refusal of the page itself (a game that cannot be loaded), at the top. One
 * that says the service cannot be reached is marked so, to go when it can. */
export function refuse(error) {
  const banner = document.getElementById("refusal");
  banner.replaceChildren(...refusalText(error));
  banner.toggleAttribute("data-unreachable", Boolean(error.unreachable));
}

export function clearRefusal() {
  const banner = document.getElementById("refusal");
  banner.replaceChildren();
  banner.removeAttribute("data-unreachable");
}

/** Whether the banner says only that the service could not be reached. */
export function refusedUnreachable() {
  return document.getElementById("refusal").hasAttribute("data-unreachable");
}

let unsay = null;

/** A polite note, e.g. that a move was logged. It goes by itself once there was
 * time to read it (longer for a longer note), or with the next tap; not while it
 * is pointed at or focused (a long one scrolls, by keys too), only once it is left. */
export function say(text) {
  const status = document.getElementById("status");
  clearTimeout(unsay);
  status.textContent = text;
  if (!text) return;
  const read = Math.min(12_000, 4_000 + 60 * text.length);
  const fade = () => {
    if (status.textContent !== text) return;
    if (status.matches(":hover, :focus-within")) {
      // A second more once it is left, the pointer and the focus both.
      const left = () => { clearTimeout(unsay); unsay = setTimeout(fade, 1_000); };
      status.addEventListener("pointerleave", left, { once: true });
      status.addEventListener("focusout", left, { once: true });
      return;
    }
    status.textContent = "";
  };
  unsay = setTimeout(fade, read);
}

export function titleCase(name) {
  return name.replaceAll("_", " ").replace(/(^|[ -])\w/g, (c) => c.toUpperCase());
}

/** Where a control is, in words that survive its box drawn anew: the legends of
 * the groups it is in (a card's "Colour" in the left pile's), and its label but
 * for a chip (its group is its place, its value what was chosen there). */
function placeOf(control) {
  const groups = [];
  for (let box = control.closest("fieldset"); box; box = box.parentElement?.closest("fieldset")) {
    groups.unshift(box.querySelector(":scope > legend")?.textContent ?? "");
  }
  if (control.type !== "radio") {
    groups.push(control.labels?.[0]?.textContent ?? control.getAttribute("aria-label")
      ?? control.name);
  }
  return groups.join(" › ");
}

/** What a player taps and types in `box`, kept across the box drawn anew:
 * `restore()` taps it again in the new controls, in the order it was done (a
 * choice may draw the next control), each one found at the same place, and gives
 * the focus back; `clear()` forgets it; `size` counts the controls touched. */
export function entries(box) {
  const taken = new Map(); // place → {value} or {checked}, in the order first touched
  const note = (event) => {
    const control = event.target;
    if (!event.isTrusted || !control.matches?.("input, select, textarea")) return;
    const where = placeOf(control);
    taken.delete(where);
    taken.set(where, control.type === "checkbox" ? { checked: control.checked }
      : { value: control.value });
  };
  box.addEventListener("input", note, true);
  box.addEventListener("change", note, true);
  const controls = () => [...box.querySelectorAll("input, select, textarea")];
  return {
    get size() { return taken.size; },
    clear: () => taken.clear(),
    restore(focused) {
      for (const [where, entry] of taken) {
        const control = controls().find((c) => placeOf(c) === where
          && (c.type !== "radio" || c.value === entry.value));
        if (!control || control.disabled) continue;
        if ("checked" in entry || control.type === "radio") {
          const checked = entry.checked ?? true;
          if (control.checked === checked) continue;
          control.checked = checked;
        } else if (control.value !== entry.value) {
          control.value = entry.value;
          control.dispatchEvent(new Event("input", { bubbles: true }));
        } else continue;
        control.dispatchEvent(new Event("change", { bubbles: true }));
      }
      if (focused) controls().find((c) => placeOf(c) === focused.where
        && (c.type !== "radio" || c.value === focused.value))?.focus();
    },
    /** The control that has the focus, to give it back after `restore`. */
    focused() {
      const control = document.activeElement;
      if (!box.contains(control) || !control.matches("input, select, textarea")) return null;
      return { where: placeOf(control), value: control.value };
    },
  };
}
