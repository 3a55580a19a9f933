// Share a game with the other phones at the table: a QR code and a link, to log or to
// watch. The link to log carries the write token in the URL's fragment
// (`#/games/{id}?token=…`), which a browser never sends to a server: the token stays
// between the phones. That is also why the QR code is drawn here, in the page, and
// not by the service. A replay's step is shared too, one tap each: its picture, the
// game as a GIF, the game's file and the step's link.
import { api, gameGroups } from "./api.js";
import { button, h, uid } from "./dom.js";
import { language, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
// The encoder (52 KB, more than any other file of the page) loads with the first QR
// code drawn, not with the page: the start page never needs it.
let encoder = null;
const loadEncoder = () => (encoder ??= import("./vendor/qrcode-generator.js")
  .then((module) => module.default));

/** The link to a replay opened at `step`: it carries no token, whoever shares it. */
export function replayLink(id, step) {
  return `${location.origin}/app/#/games/${id}/replay/${step}`;
}

export function shareLink(id, token) {
  const link = `${location.origin}/app/#/games/${id}`;
  return token ? `${link}?token=${encodeURIComponent(token)}` : link;
}

/** A QR code of `text` as an SVG image, drawn from the library's modules when it is
 * first in sight (a share panel opened), once the encoder has loaded; the image,
 * named, is there at once. */
export function qrImage(text, label) {
  const image = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 1 1", role: "img", "aria-label": label, class: "qr",
    "shape-rendering": "crispEdges",
  })) image.setAttribute(key, value);
  const sight = new IntersectionObserver((seen) => {
    if (!seen.some((entry) => entry.isIntersecting)) return;
    sight.disconnect();
    loadEncoder().then((qrcode) => drawCode(image, qrcode, text))
      .catch((error) => console.error("the QR code encoder did not load", error));
  });
  sight.observe(image);
  return image;
}

function drawCode(image, qrcode, text) {
  const code = qrcode(0, "M"); // 0: the smallest version that holds the text
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  const margin = 4; // the quiet zone the standard asks for
  let path = "";
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (code.isDark(row, col)) path += `M${col + margin},${row + margin}h1v1h-1z`;
    }
  }
  const size = count + 2 * margin;
  image.setAttribute("viewBox", `0 0 ${size} ${size}`);
  const background = document.createElementNS(SVG, "rect");
  background.setAttribute("width", size);
  background.setAttribute("height", size);
  background.setAttribute("fill", "#fff");
  const modules = document.createElementNS(SVG, "path");
  modules.setAttribute("d", path);
  modules.setAttribute("fill", "#000");
  image.replaceChildren(background, modules);
}

export function linkBlock(title, explain, link) {
  const input = h("input", {
    type: "text", readonly: true, value: link, id: uid("link"), class: "link",
    onfocus: (event) => event.target.select(),
  });
  const copied = h("span", { class: "muted", "aria-live": "polite" });
  return h("div", { class: "share-link" },
    h("h2", {}, title), h("p", { class: "muted" }, explain),
    qrImage(link, t("share.qr", { title })),
    h("label", { for: input.id }, t("share.link", { title })), input,
    button(t("share.copy"), async () => {
      try {
        await navigator.clipboard.writeText(link);
        copied.textContent = t("share.copied");
      } catch {
        input.focus();
        copied.textContent = t("share.selected");
      }
    }), copied);
}

/** The "Share" button and the panel it opens. */
export function sharePanel(id, token) {
  return shareToggle(h("div", { class: "card share", id: uid("share"), hidden: true },
    token ? linkBlock(t("share.log_title"), t("share.log_explain"),
      shareLink(id, token)) : null,
    linkBlock(t("share.watch_title"), t("share.watch_explain"), shareLink(id, null))));
}

/** A "Share" button that shows and hides `panel`. */
export function shareToggle(panel) {
  const toggle = button(t("share.share"), () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute("aria-expanded", String(!panel.hidden));
  }, { "aria-expanded": "false", "aria-controls": panel.id });
  return [toggle, panel];
}

// A GIF holds at most this many steps (docs/api.md, "A step as a picture").
const GIF_STEPS = 200;

/** A replay's step shared, one tap each: its picture, the game up to it as a GIF
 * (the 200 steps up to it, or from the start at step 0), the game's file (its
 * export) and the step's link. Where the phone shares files (the Web Share API),
 * each opens its share sheet; elsewhere a file is downloaded and the link copied. */
export function stepShares(id, step, title) {
  const said = h("p", { class: "muted", "aria-live": "polite" });
  const key = gameGroups.key(id);
  const image = (query) => `/games/${id}/replay/${step}/image?${new URLSearchParams(
    { ...query, lang: language() })}`;
  const frames = step ? { from: Math.max(0, step - GIF_STEPS + 1), to: step } : {};
  const sharing = (label, path, name, type) => button(t(label), async () => {
    said.textContent = t("share.preparing");
    try {
      const made = new File([await api.file(path, key)], name, { type });
      if (navigator.canShare?.({ files: [made] })) {
        await navigator.share({ files: [made], title });
        said.textContent = "";
      } else {
        download(made);
        said.textContent = t("share.downloaded", { name });
      }
    } catch (error) {
      // The share sheet closed unused: nothing to say.
      said.textContent = error.name === "AbortError" ? "" : error.message;
    }
  });
  const link = button(t("share.step_link"), async () => {
    const url = replayLink(id, step);
    try {
      if (navigator.share) await navigator.share({ url, title });
      else {
        await navigator.clipboard.writeText(url);
        said.textContent = t("share.copied");
      }
    } catch (error) {
      said.textContent = error.name === "AbortError" ? "" : t("share.selected");
    }
  });
  return h("div", { class: "share-files" },
    h("div", { class: "row" },
      sharing("share.picture", image({ format: "png" }), `step-${step}.png`, "image/png"),
      sharing("share.gif", image({ format: "gif", ...frames }), `game-${step}.gif`,
        "image/gif"),
      sharing("share.file", `/games/${id}/export`, `game-${id}.ndjson`, "application/x-ndjson"),
      link),
    said);
}

/** `file` saved to the phone, as a link to it with `download` does. */
function download(file) {
  const address = URL.createObjectURL(file);
  const link = h("a", { href: address, download: file.name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(address), 60_000);
}
