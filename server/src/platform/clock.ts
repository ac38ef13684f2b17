/** Time as the server sees it; tests pass a clock they control. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
