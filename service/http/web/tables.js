// What every game's state panel and the score sheet draw alike: a list of facts, a
// table with a row per player, a player's name in a narrow first column.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function facts(pairs) {
  return h("dl", { class: "facts" }, pairs.filter(Boolean).map(([term, value]) =>
    h("div", {}, h("dt", {}, term), h("dd", {}, value))));
}

/** A player's name in a narrow first column: cut short with "…", whole on a tap. */
export function nameCell(player) {
  return h("th", {
    scope: "row", class: "name", title: player, tabindex: "0",
    onclick: (event) => event.currentTarget.classList.toggle("whole"),
    onkeydown: (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.currentTarget.classList.toggle("whole");
      }
    },
  }, player);
}

export function playerTable(caption, players, columns) {
  return h("div", { class: "scroll" }, h("table", {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, t("state.player")),
      columns.map(([title]) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, players.map((player) => h("tr", {},
      nameCell(player),
      columns.map(([, value]) => {
        const shown = value(player);
        return h("td", { class: typeof shown === "number" ? null : "text" }, shown);
      }))))));
}
