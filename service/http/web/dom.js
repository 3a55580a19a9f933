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

/** A polite note, e.g. that a move was logged. */
export function say(text) {
  document.getElementById("status").textContent = text;
}

export function titleCase(name) {
  return name.replaceAll("_", " ").replace(/(^|[ -])\w/g, (c) => c.toUpperCase());
}
