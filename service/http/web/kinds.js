// The games the service hosts (`GET /games/kinds`, docs/api.md "Creating a game"): each
// game's name, family, labels, player range and the JSON Schema of its options. Read
// once per page load, before anything is drawn, and kept on this phone for the times
// the table's Wi-Fi is down (the service worker keeps it too).
import { api } from "./api.js";
import { language } from "./i18n.js";

const KEPT = "tablelog:kinds";
let known = null;

/** Fetch the kinds once; offline, the copy this phone kept from its last visit. */
export async function loadKinds() {
  if (known) return known;
  try {
    known = (await api.get("/games/kinds")).kinds;
    localStorage.setItem(KEPT, JSON.stringify(known));
  } catch (error) {
    const kept = localStorage.getItem(KEPT);
    if (!kept) throw error;
    known = JSON.parse(kept);
  }
  return known;
}

/** Every kind, in the service's order (loadKinds must have answered). */
export function kinds() {
  return known ?? [];
}

export function kindOf(name) {
  return kinds().find((kind) => kind.name === name) ?? null;
}

/** A game's name as the reader's language words it. */
export function gameLabel(name) {
  const labels = kindOf(name)?.labels ?? {};
  return labels[language()] ?? labels.en ?? name;
}

/** The JSON Schema of one option of a kind (`rounds`: its minimum, maximum and
 * default), or null when the kind has no such option. */
export function option(kind, name) {
  const schema = kind.options;
  const ref = schema.$ref?.replace("#/$defs/", "");
  const options = ref ? schema.$defs[ref] : schema;
  return options.properties?.[name] ?? null;
}
