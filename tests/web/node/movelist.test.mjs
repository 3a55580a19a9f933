// A replay's move list without a browser: its steps in rounds as a game's module
// names them, each variation under the step it branches from, and the step a key
// or a swipe leads to.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  SWIPE_PX, inRounds, keyStep, swipeStep, variationsByStep,
} from "../../../service/http/web/movelist.js";

const states = (...rounds) => rounds.map((round) => ({ round }));
// As Dobro says it: a move is of the round it was played in, even the one that
// scores the round and deals the next.
const playedIn = (before) => before.round;
// As Dozito says it: a round opens with its own move (`start_round`).
const openedBy = (before, after) => after.round;

test("without a module's word on rounds, every step is one run", () => {
  assert.deepEqual(inRounds(states(1, 1, 2, 2)), [{ round: null, steps: [0, 1, 2, 3] }]);
});

test("a move that scores a round and deals the next stays in its round", () => {
  // Step 2 scores round 1: the state after it is of round 2 already.
  assert.deepEqual(inRounds(states(1, 1, 2, 2, 3), playedIn), [
    { round: 1, steps: [0, 1, 2] },
    { round: 2, steps: [3, 4] },
  ]);
});

test("a round opened by a move of its own starts at that move", () => {
  // Round 0 before the first `start_round`: step 0 is in the first move's round.
  assert.deepEqual(inRounds(states(0, 1, 1, 1, 2, 2), openedBy), [
    { round: 1, steps: [0, 1, 2, 3] },
    { round: 2, steps: [4, 5] },
  ]);
});

test("an undo back into a round starts a run of that round again", () => {
  assert.deepEqual(inRounds(states(1, 1, 2, 1), openedBy), [
    { round: 1, steps: [0, 1] },
    { round: 2, steps: [2] },
    { round: 1, steps: [3] },
  ]);
});

test("a game of no move is its step 0 alone", () => {
  assert.deepEqual(inRounds(states(1), openedBy), [{ round: null, steps: [0] }]);
});

test("a module that names no round for a state gives null, not undefined", () => {
  assert.deepEqual(inRounds(states(1, 1), () => undefined), [
    { round: null, steps: [0, 1] },
  ]);
});

test("each variation is under the step it branches from, the oldest first", () => {
  const made = (id, step) => ({ id, variation_of: { game: "g", step } });
  // The service lists them newest first.
  const byStep = variationsByStep([made("c", 4), made("b", 0), made("a", 4)]);
  assert.deepEqual([...byStep.keys()].sort(), [0, 4]);
  assert.deepEqual(byStep.get(4).map((v) => v.id), ["a", "c"]);
  assert.deepEqual(byStep.get(0).map((v) => v.id), ["b"]);
  assert.equal(byStep.get(1), undefined);
});

test("the arrow keys, Home and End step within the game", () => {
  assert.equal(keyStep("ArrowRight", 3, 5), 4);
  assert.equal(keyStep("ArrowDown", 3, 5), 4);
  assert.equal(keyStep("ArrowLeft", 3, 5), 2);
  assert.equal(keyStep("ArrowUp", 3, 5), 2);
  assert.equal(keyStep("Home", 3, 5), 0);
  assert.equal(keyStep("End", 3, 5), 5);
  assert.equal(keyStep("ArrowRight", 5, 5), 5);
  assert.equal(keyStep("ArrowLeft", 0, 5), 0);
  assert.equal(keyStep("Enter", 3, 5), null);
});

test("a swipe left shows the next step, right the one before", () => {
  assert.equal(swipeStep(-SWIPE_PX, 0), 1);
  assert.equal(swipeStep(120, 10), -1);
});

test("a short move or a scroll steps nowhere", () => {
  assert.equal(swipeStep(-(SWIPE_PX - 1), 0), 0);
  assert.equal(swipeStep(-60, 40), 0); // more up than a swipe allows: a scroll
  assert.equal(swipeStep(0, -200), 0);
});
