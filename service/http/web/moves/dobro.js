// Dobro's moves (docs/api.md, "Dobro moves"): play, skip, reverse, take, forgot refill.
import { button, chips, field, h, select } from "../dom.js";

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
  // The service says which kinds of move can be legal now (`allowed`): the page
  // offers those and no others, and never works the rules out itself.
  const may = new Set(s.allowed ?? ["play", "skip", "reverse", "take", "forgot_refill"]);
  return h("div", {},
    h("p", { class: "turn" }, `${player}'s turn`),
    may.has("play") ? [
      chips("Card", "card", [...values.map((v) => [v, v]), ["wild", "Wild"]], null, onValue),
      secondBox, wildBox, announceField(),
      h("div", { class: "row" }, playButton)] : h("p", {}, "No card left can follow: take the cards."),
    h("div", { class: "row" },
      may.has("skip") ? button(`${player} skips`, () => submit({ type: "skip", player })) : null,
      may.has("reverse")
        ? button(`${player} reverses`, () => submit({ type: "reverse", player })) : null,
      may.has("take")
        ? button(`${player} takes the cards`, () => submit({ type: "take", player })) : null),
    may.has("forgot_refill") ? forgotRefill(game, submit) : null);

  // D10: the value a player calls out, if the table logs it; a wrong call is refused.
  function announceField() {
    const input = h("input", {
      type: "number", inputmode: "numeric", min: "2", max: "999", name: "announced",
      oninput: (event) => { announced = event.target.value; },
    });
    return field("Value called out (optional)", input);
  }
}

function forgotRefill(game, submit) {
  const who = select(game.players.map((p) => [p, p]), game.state.next_player);
  return h("div", { class: "row aside" }, field("Who forgot to refill", who),
    button("Forgot to refill", () => submit({ type: "forgot_refill", player: who.value })));
}
