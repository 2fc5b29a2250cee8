// Responses dropped after the server answered, in the simulated candidates' own HTTP client: the server has
// processed the request and written its answer; the client throws the connection away unread (as a network
// that fails on the way back does) and sees a reset, which the candidate retries as the browser does.
// The fault proxy (fault-proxy.ts) can do the same from between the two, and chaos keeps it for its resets
// and latencies; a scenario that only drops does it here, without a relay hop for every request on the
// same cores as the server it measures.

export type ResponseDrops = {
  /** The share of responses dropped from now on (0 stops it). */
  setRate(rate: number): void;
  /** Asked once per response, as its head arrives: true drops it. */
  isDropped(): boolean;
  /** Responses seen and dropped so far. */
  stats(): { responses: number; dropped: number };
};

export function responseDrops(random: () => number = Math.random): ResponseDrops {
  let rate = 0;
  let responses = 0;
  let dropped = 0;
  return {
    setRate(next) {
      if (!(next >= 0 && next <= 1)) throw new Error(`a drop rate is in [0, 1], not ${next}`);
      rate = next;
    },
    isDropped() {
      responses += 1;
      if (rate === 0 || random() >= rate) return false;
      dropped += 1;
      return true;
    },
    stats: () => ({ responses, dropped }),
  };
}
