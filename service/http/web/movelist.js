// A replay's move list as plain data, for replay.js to draw: its steps grouped in
// rounds (where the game's module says which round a move was played in), the
// variations branched from each step, and the step a key or a swipe on the board
// leads to. Plain functions, without a page: node's test runner drives them.

/** The steps 0 to `states.length - 1` in runs of one round, in order:
 * `[{round, steps: [n, ...]}]`. `states[0]` is the game before any move, `states[n]`
 * the state after step n. `roundOf(before, after)`, a game module's (games.js), names
 * the round of the move from state `before` to state `after`, or gives null; step 0
 * is in the round of the first move. Without `roundOf`, one run whose round is null.
 * A run starts wherever the round changes (an undo may go back to a round). */
export function inRounds(states, roundOf) {
  const rounds = states.map((state, n) => (n === 0 || !roundOf
    ? null : roundOf(states[n - 1], state) ?? null));
  if (rounds.length > 1) rounds[0] = rounds[1];
  const runs = [];
  rounds.forEach((round, step) => {
    const run = runs.at(-1);
    if (run && run.round === round) run.steps.push(step);
    else runs.push({ round, steps: [step] });
  });
  return runs;
}

/** The variations of a game (as its list gives them, newest first) by the step they
 * branch from, the oldest first under each step. */
export function variationsByStep(variations) {
  const byStep = new Map();
  for (const variation of [...variations].reverse()) {
    const step = variation.variation_of.step;
    byStep.set(step, [...(byStep.get(step) ?? []), variation]);
  }
  return byStep;
}

/** The step a key leads to from step `current` of `last` (← ↑ back, → ↓ on, Home the
 * start, End the last step), or null for a key that steps nowhere. */
export function keyStep(key, current, last) {
  const to = { ArrowLeft: current - 1, ArrowRight: current + 1, ArrowUp: current - 1,
    ArrowDown: current + 1, Home: 0, End: last }[key];
  return to === undefined ? null : Math.max(0, Math.min(last, to));
}

// A swipe: at least this many CSS pixels sideways, and mostly sideways.
export const SWIPE_PX = 40;

/** Which way a finger's move of `dx`, `dy` pixels steps: a swipe to the left shows
 * the next step (+1), to the right the one before (-1), as a page is turned; a move
 * too short, or more up or down than sideways (a scroll), 0. */
export function swipeStep(dx, dy) {
  if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < 2 * Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}
