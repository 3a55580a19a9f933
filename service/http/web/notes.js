// The notes on a replay step: what the table thought there, with its mark. Anyone
// reads them (the move list shows them under their step too, `noteLine`); a phone
// holding the game's write token writes one, and withdraws one (the service keeps
// it in the game's history of notes). The notes come with the
// replay's steps (`notes` of each), and a note written or withdrawn here is folded
// into them (`noted`, `withdrawn`), so moving between steps asks nothing more.
import { api } from "./api.js";
import { button, field, h, refusalBox, say, select } from "./dom.js";
import { t } from "./i18n.js";

export const MARKS = ["!", "?", "!!", "??", "!?", "?!"];

/** The notes in force, by step, from a replay's steps and its step 0. */
export function notesByStep(start, steps) {
  return [start.notes ?? [], ...steps.map((step) => step.notes ?? [])];
}

/** The notes once `note` (as the service answered it) was written on its step. */
export function noted(byStep, note) {
  const { step, withdrawn_at: _, ...shown } = note;
  return byStep.map((notes, n) => (n === step ? [...notes, shown] : notes));
}

/** The notes once note `id` was withdrawn. */
export function withdrawn(byStep, id) {
  return byStep.map((notes) => notes.filter((note) => note.id !== id));
}

const markName = (mark) => t(`notes.mark.${MARK_KEYS[mark]}`);
const MARK_KEYS = {
  "!": "good", "?": "mistake", "!!": "brilliant", "??": "blunder",
  "!?": "interesting", "?!": "dubious",
};

/** A note as it reads: its mark (named in full for a screen reader) and its text. */
export function noteLine(note) {
  return [note.mark ? h("abbr", { class: "mark", title: markName(note.mark) }, note.mark) : null,
    note.mark ? " " : null, h("span", {}, note.text)];
}

/** Draw the notes of `step` in `box`; with `token`, the controls to write and
 * withdraw. `changed(byStep)` is told of a note written or withdrawn. */
export function renderNotes(box, { id, step, byStep, token, changed }) {
  const notes = byStep[step] ?? [];
  const refusal = h("div");
  const title = h("h2", { id: "notes-title", tabindex: "-1" }, t("notes.title", { step }));
  const list = notes.length
    ? h("ul", { class: "notes" }, notes.map((note) => h("li", {}, noteLine(note),
      token ? button(t("notes.withdraw"), () => withdraw(note), {
        "aria-label": t("notes.withdraw_named", { text: note.text }),
      }) : null)))
    : h("p", { class: "muted" }, t("notes.none"));

  async function withdraw(note) {
    try {
      await api.post(`/games/${id}/notes/${note.id}/withdrawal`, undefined, token);
    } catch (error) {
      refusal.replaceChildren(refusalBox(error));
      return;
    }
    say(t("notes.withdrawn"));
    changed(withdrawn(byStep, note.id));
    box.querySelector("h2").focus();
  }

  box.replaceChildren(title, list, token ? noteForm() : "", refusal);

  function noteForm() {
    const text = h("textarea", { rows: "3", maxlength: "2000", required: true });
    const mark = select([["", t("notes.no_mark")],
      ...MARKS.map((m) => [m, `${m} ${markName(m)}`])], "");
    const form = h("form", { class: "note-form" },
      field(t("notes.text"), text), field(t("notes.mark"), mark),
      h("button", { type: "submit" }, t("notes.add")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!text.value.trim()) {
        text.focus();
        return;
      }
      const body = { step, text: text.value, mark: mark.value || null };
      let note;
      try {
        note = await api.post(`/games/${id}/notes`, body, token);
      } catch (error) {
        refusal.replaceChildren(refusalBox(error));
        return;
      }
      say(t("notes.added"));
      changed(noted(byStep, note));
      box.querySelector("h2").focus();
    });
    return form;
  }
}
