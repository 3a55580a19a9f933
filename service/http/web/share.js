// Share a game with the other phones at the table: a QR code and a link, to log or to
// watch. The link to log carries the write token in the URL's fragment
// (`#/games/{id}?token=…`), which a browser never sends to a server: the token stays
// between the phones. That is also why the QR code is drawn here, in the page, and
// not by the service.
import { button, h, uid } from "./dom.js";
import { t } from "./i18n.js";

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
