// The page's words in the language of its reader: English or French, one catalogue
// per language (i18n/en.js, i18n/fr.js) holding every sentence the page's own files
// show; each game's module holds its own words, in both languages, and says them
// before these (`wording`). The first visit takes the browser's languages; the switch
// in the header changes it, and this phone remembers the choice. Numbers, plurals,
// lists and dates come from Intl, so that no sentence is glued from pieces.
import en from "./i18n/en.js";
import fr from "./i18n/fr.js";

const CATALOGUES = { en, fr };
const STORED = "tablelog:language";
/** Each language as its own speakers name it, for the switch. */
export const LANGUAGE_NAMES = { en: "English", fr: "Français" };

function firstChoice() {
  const stored = localStorage.getItem(STORED);
  if (stored in CATALOGUES) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = String(tag).split("-")[0].toLowerCase();
    if (primary in CATALOGUES) return primary;
  }
  return "en";
}

let current = firstChoice();
let plurals = new Intl.PluralRules(current);

/** The language the page speaks now: "en" or "fr". */
export function language() {
  return current;
}

export function setLanguage(code) {
  current = code;
  plurals = new Intl.PluralRules(code);
  localStorage.setItem(STORED, code);
  showLanguage();
}

/** The document's language and its fixed words (`data-i18n` in index.html). */
export function showLanguage() {
  document.documentElement.lang = current;
  document.title = t("page.title");
  for (const el of document.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
}

function shown(value) {
  if (typeof value === "number") return new Intl.NumberFormat(current).format(value);
  if (Array.isArray(value)) {
    return new Intl.ListFormat(current, { type: "conjunction" }).format(value.map(shown));
  }
  return String(value);
}

/** A template with its `{values}`. A sentence with plural forms (`{one, other}`)
 * takes the form of its `count`. */
function said(template, key, values) {
  if (template === undefined) throw new Error(`No ${current} wording for ${key}`);
  if (typeof template === "object") {
    template = template[plurals.select(values.count)] ?? template.other;
  }
  return template.replace(/\{(\w+)\}/g, (_, name) => shown(values[name]));
}

/** The sentence `key` of the catalogue with its `{values}`. */
export function t(key, values = {}) {
  return said(CATALOGUES[current][key], key, values);
}

/** What a game's module says with: its own `words` (`{en: {...}, fr: {...}}`)
 * before the page's. `t` as above; `has(key)` whether either words `key` (a name
 * the page may or may not translate: a colour a table named itself is shown as
 * named). */
export function wording(words) {
  const find = (key) => words[current]?.[key] ?? CATALOGUES[current][key];
  return {
    t: (key, values = {}) => said(find(key), key, values),
    has: (key) => find(key) !== undefined,
  };
}

/** A date and time as the reader's language writes it. */
export function dateTime(date, options) {
  return new Intl.DateTimeFormat(current, options).format(date);
}

/** Every key of every catalogue, for the test that each language words them all. */
export const catalogues = CATALOGUES;
