// Dobro's moves (docs/api.md, "Dobro moves"): play, skip, reverse, take, forgot refill.
import { button, chips, field, h, select } from "../dom.js";

export function dobroMoves(game, submit) {
  const s = game.state;
  const player = s.next_player;
  const opening = s.value_in_play === null;
  const [low, high] = s.wild_range;
  const values = Array.from({ length: high - low + 1 }, (_, i) => low + i);
  let first = null;
  let second = "none";
  let wildAs = s.value_in_play ?? low;

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
    return move;
  }

  function update() {
    const played = cards();
    const pairWith = first === "wild"
      ? [["none", "One wild"], ["same", "Two wilds"]]
      : [["none", "One card"], ["same", "A pair"], ["wild", "With a wild"]];
    secondBox.replaceChildren(first === null ? "" :
      chips("How many", "second", pairWith, second, (value) => {
        second = value;
        update();
      }));
    wildBox.replaceChildren(played.length && played.every((c) => c === "wild")
      ? field("The wild counts as", select(values.map((v) => [v, v]), wildAs, {
        onchange: (event) => { wildAs = event.target.value; },
      })) : "");
    playButton.disabled = played.length === 0;
    playButton.textContent = played.length
      ? `${player} plays ${played.join(" + ")}` : "Choose a card to play";
  }

  const onValue = (value) => {
    first = value;
    if (first === "wild" && second === "wild") second = "none";
    update();
  };
  update();
  return h("div", {},
    h("p", { class: "turn" }, `${player}'s turn`),
    chips("Card", "card", [...values.map((v) => [v, v]), ["wild", "Wild"]], null, onValue),
    secondBox, wildBox,
    h("div", { class: "row" }, playButton),
    h("div", { class: "row" },
      // D7: Skip and Reverse open a climb only once the draw pile is empty.
      opening && s.draw_pile_size > 0 ? null : [
        button(`${player} skips`, () => submit({ type: "skip", player })),
        button(`${player} reverses`, () => submit({ type: "reverse", player }))],
      opening ? null
        : button(`${player} takes the cards`, () => submit({ type: "take", player }))),
    forgotRefill(game, submit));
}

function forgotRefill(game, submit) {
  const who = select(game.players.map((p) => [p, p]), game.state.next_player);
  return h("div", { class: "row aside" }, field("Who forgot to refill", who),
    button("Forgot to refill", () => submit({ type: "forgot_refill", player: who.value })));
}
