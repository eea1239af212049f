// Small statistics shared by the bench scripts.

/** The median of `a` (the upper middle for an even count); `a` is not changed. `median([3, 1, 2])` is 2. */
export const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
