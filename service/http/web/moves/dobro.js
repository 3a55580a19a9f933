// Dobro's moves (docs/api.md, "Dobro moves"): play, skip, reverse, take, forgot refill.
import { button, chips, field, h, select } from "../dom.js";
import { t } from "../i18n.js";
import { dobroCard } from "../state.js";

export function dobroMoves(game, submit) {
  const s = game.state;
  const player = s.next_player;
  const [low, high] = s.wild_range;
  const values = Array.from({ length: high - low + 1 }, (_, i) => low + i);
  let first = null;
  let second = "none";
  let wildAs = s.value_in_play ?? low;
  let announced = "";

  const wildBox = h("div");
  const secondBox = h("div");
  const playButton = button("", () => submit(playMove()), { class: "primary" });

  function cards() {
    if (first === null) return [];
    if (second === "same") return [first, first];
    if (second === "wild") return [first, "wild"];
    return [first];
  }

  function playMove() {
    const move = { type: "play", player, cards: cards() };
    if (move.cards.every((card) => card === "wild")) move.wild_as = Number(wildAs);
    if (announced.trim() !== "") move.announced = Number(announced);
    return move;
  }

  function update() {
    const played = cards();
    const pairWith = first === "wild"
      ? [["none", t("dobro.one_wild")], ["same", t("dobro.two_wilds")]]
      : [["none", t("dobro.one_card")], ["same", t("dobro.a_pair")],
        ["wild", t("dobro.with_wild")]];
    secondBox.replaceChildren(first === null ? "" :
      chips(t("dobro.how_many"), "second", pairWith, second, (value) => {
        second = value;
        update();
      }));
    wildBox.replaceChildren(played.length && played.every((c) => c === "wild")
      ? field(t("dobro.wild_counts_as"), select(values.map((v) => [v, v]), wildAs, {
        onchange: (event) => { wildAs = event.target.value; },
      })) : "");
    playButton.disabled = played.length === 0;
    playButton.textContent = played.length
      ? t("dobro.plays", { player, cards: played.map(dobroCard).join(" + ") })
      : t("dobro.choose_card");
  }

  const onValue = (value) => {
    first = value;
    if (first === "wild" && second === "wild") second = "none";
    update();
  };
  update();
  // The service says which kinds of move can be legal now (`allowed`): the page
  // offers those and no others, and never works the rules out itself.
  const may = new Set(s.allowed ?? ["play", "skip", "reverse", "take", "forgot_refill"]);
  return h("div", {},
    h("p", { class: "turn" }, t("dobro.turn", { player })),
    may.has("play") ? [
      chips(t("dobro.card_chips"), "card",
        [...values.map((v) => [v, v]), ["wild", t("dobro.wild")]], null, onValue),
      secondBox, wildBox, announceField(),
      h("div", { class: "row" }, playButton)] : h("p", {}, t("dobro.none_can_follow")),
    h("div", { class: "row" },
      may.has("skip")
        ? button(t("dobro.skips", { player }), () => submit({ type: "skip", player })) : null,
      may.has("reverse")
        ? button(t("dobro.reverses", { player }), () => submit({ type: "reverse", player }))
        : null,
      may.has("take")
        ? button(t("dobro.takes", { player }), () => submit({ type: "take", player })) : null),
    may.has("forgot_refill") ? forgotRefill(game, submit) : null);

  // D10: the value a player calls out, if the table logs it; a wrong call is refused.
  function announceField() {
    const input = h("input", {
      type: "number", inputmode: "numeric", min: "2", max: "999", name: "announced",
      oninput: (event) => { announced = event.target.value; },
    });
    return field(t("dobro.called_out"), input);
  }
}

function forgotRefill(game, submit) {
  const who = select(game.players.map((p) => [p, p]), game.state.next_player);
  return h("div", { class: "row aside" }, field(t("dobro.who_forgot"), who),
    button(t("dobro.forgot"), () => submit({ type: "forgot_refill", player: who.value })));
}
