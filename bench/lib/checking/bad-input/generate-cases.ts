// The bad requests of `npm run bench -- bad-input`: every endpoint of the contract (and the app's own
// additions), every way a request can be wrong, generated deterministically from a seed.
//
// A case says what the request must get:
// - `reject` (almost all): a 4xx other than 429 with the contract's JSON error body, optionally one of
//   `statuses` where the contract names the status;
// - `allow`: a request that is not an error under the contract although it carries junk (a body on an
//   endpoint that takes none, a sign-out with a forged cookie, a join link that is not valid, unknown
//   fields next to an empty delta); it must get one of `statuses` and, like every case, change nothing.

import { authCases } from "./auth-cases";
import { bodyCases, exportFileCases } from "./body-cases";
import { idCases } from "./id-cases";
import { idempotencyCases } from "./idempotency-cases";
import { ignoredJunkCases } from "./ignored-junk-cases";
import { limitCases } from "./limit-cases";
import { methodCases, proctorCases } from "./method-cases";
import { resultsCases } from "./results-cases";
import { type BadCase, type Fixture, seededRandom } from "./types";

/** Every bad request, in a deterministic order for `seed`. */
export function generateCases(fixture: Fixture, seed: number): BadCase[] {
  const random = seededRandom(seed);
  const cases = [
    ...bodyCases(fixture, random),
    ...limitCases(fixture, random),
    ...idCases(fixture, random),
    ...authCases(fixture, random),
    ...idempotencyCases(fixture, random),
    ...exportFileCases(fixture),
    ...methodCases(fixture, random),
    ...proctorCases(fixture, random),
    ...ignoredJunkCases(fixture, random),
    ...resultsCases(fixture, random),
  ];
  return random.shuffle(cases);
}

/**
 * At most `cap` cases, taken round-robin over endpoints and categories, so a small run still touches
 * every endpoint and every kind of bad input.
 */
export function capCases(cases: readonly BadCase[], cap: number): BadCase[] {
  if (cases.length <= cap) return [...cases];
  const groups = new Map<string, BadCase[]>();
  for (const item of cases) {
    const key = `${item.endpoint}|${item.category}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const queues = [...groups.values()];
  const picked: BadCase[] = [];
  for (let round = 0; picked.length < cap; round += 1) {
    for (const queue of queues) {
      const item = queue[round];
      if (item && picked.length < cap) picked.push(item);
    }
  }
  return picked;
}
