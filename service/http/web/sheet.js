// The score sheet: points round by round, totals, winners, and a chart drawn in SVG.
import { h } from "./dom.js";
import { gameOf } from "./games.js";
import { t } from "./i18n.js";
import { nameCell } from "./tables.js";

// A sheet of running totals, unless the game's module words its own (`sheet`).
const TOTALS = {
  running: true,
  total: () => t("sheet.total"),
  chart: (values) => t("sheet.chart_totals", values),
  caption: () => t("sheet.caption_totals"),
};
const wording = (kind) => ({ ...TOTALS, ...gameOf(kind).sheet });

const SVG = "http://www.w3.org/2000/svg";
// Colours and dashes both tell the lines apart, for readers who do not see colour.
const LINES = [
  ["#1b6ac9", ""], ["#c2410c", "6 3"], ["#15803d", "2 3"],
  ["#7e22ce", "8 3 2 3"], ["#a16207", "1 2"], ["#be123c", "10 4"],
];

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

/** Per player, the value after each round: running totals, or (a game that scores no
 * rounds) each round's own. */
function series(look, sheet) {
  return sheet.players.map((player) => {
    let total = 0;
    return sheet.rounds.map((line) => {
      const points = line.points[player] ?? 0;
      total = look.running ? total + points : points;
      return total;
    });
  });
}

export function chart(kind, sheet) {
  const look = wording(kind);
  const data = series(look, sheet);
  const width = 320;
  const height = 180;
  const pad = { left: 30, right: 12, top: 12, bottom: 26 };
  const rounds = sheet.rounds.length;
  const top = Math.max(1, ...data.flat());
  const bottom = Math.min(0, ...data.flat());
  const x = (i) => pad.left + ((width - pad.left - pad.right) * i) / Math.max(1, rounds);
  const y = (v) => pad.top + ((height - pad.top - pad.bottom) * (top - v)) / (top - bottom);
  const summary = sheet.players.map((player, i) =>
    t("sheet.player_points", { player, points: data[i].at(-1) ?? 0 })).join(", ");
  const plot = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart",
    "aria-label": look.chart({ count: rounds, summary }),
  });
  plot.append(
    svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }),
    svg("text", { x: 2, y: y(top) + 4, class: "tick" }, String(top)),
    svg("text", { x: 2, y: y(bottom) + 4, class: "tick" }, String(bottom)));
  for (let r = 1; r <= rounds; r += 1) {
    plot.append(svg("text", { x: x(r), y: height - 6, class: "tick", "text-anchor": "middle" },
      t("sheet.round", { round: r })));
  }
  data.forEach((values, i) => {
    const [color, dash] = LINES[i % LINES.length];
    const start = look.running ? [[x(0), y(0)]] : [];
    const points = [...start, ...values.map((v, r) => [x(r + 1), y(v)])];
    plot.append(svg("polyline", {
      points: points.map((p) => p.join(",")).join(" "),
      fill: "none", stroke: color, "stroke-width": 2.5, "stroke-dasharray": dash,
    }));
    for (const [px, py] of points.slice(start.length)) {
      plot.append(svg("circle", { cx: px, cy: py, r: 3, fill: color }));
    }
  });
  const legend = h("ul", { class: "legend" }, sheet.players.map((player, i) => {
    // Set through the element's style, not a `style` attribute, which the page's
    // Content-Security-Policy refuses.
    const swatch = h("span", { class: "swatch" });
    const [color, dashed] = LINES[i % LINES.length];
    swatch.style.borderTop = `3px ${dashed ? "dashed" : "solid"} ${color}`;
    return h("li", {}, swatch, player);
  }));
  return h("figure", {}, plot, legend,
    h("figcaption", {}, look.caption()));
}

// One row per player, the total beside the name and the rounds after it: the winner's
// points are in sight on a phone, and only the rounds scroll sideways.
export function renderSheet(box, kind, sheet) {
  const players = sheet.players;
  const totalsLabel = wording(kind).total();
  const rounds = sheet.rounds;
  const table = h("table", { class: "sheet" },
    h("caption", {}, t("sheet.per_round"),
      rounds.length > 2 ? h("span", { class: "muted" }, t("sheet.scroll")) : null),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "name" }, t("state.player")),
      h("th", { scope: "col", class: "total" }, totalsLabel),
      rounds.map((line) => h("th", { scope: "col" }, t("sheet.round", { round: line.round }))))),
    h("tbody", {}, players.map((p) => h("tr", {
      class: sheet.finished && sheet.winners.includes(p) ? "won" : null,
    }, nameCell(p), h("td", { class: "total" }, sheet.totals[p] ?? ""),
    rounds.map((line) => h("td", {}, line.points[p] ?? ""))))));
  box.replaceChildren(h("h2", { id: "sheet-title" }, t("sheet.title")),
    ...(rounds.length ? [h("div", { class: "scroll", tabindex: "0", role: "group",
      "aria-label": t("sheet.table") }, table), chart(kind, sheet)]
      : [h("p", {}, t("sheet.none"))]),
    sheet.finished ? h("p", { class: "winners" }, t("sheet.winners", { winners: sheet.winners }))
      : "",
    ...rounds.map((line) => tieBreak(kind, line)).filter(Boolean));
}

/** Each player's value in a tie-break, as "Ana: 3, Bo: 5". */
const each = (values) => Object.entries(values)
  .map(([player, value]) => t("sheet.tie_value", { player, value }));

/** How a tie was settled, worded by the game's module (`tieBreak`) from a line of the
 * sheet as the service gives it, under its ruling. Nothing when nothing was tied. */
export function tieBreak(kind, line) {
  const sentence = gameOf(kind).tieBreak?.(line.detail ?? {}, each) ?? null;
  return sentence
    ? h("p", { class: "tie-break" }, t("sheet.tie_round", { round: line.round, sentence }))
    : null;
}
