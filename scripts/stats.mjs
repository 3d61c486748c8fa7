// Order statistics shared by the benchmark scripts.

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The f-quantile by the nearest-rank rule (element floor(f * n) of the sorted list), NaN when empty. */
export function quantile(xs, f) {
  if (!xs.length) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(f * s.length))];
}
