// Plays a text back the way a model streams it: a few characters every ~20 ms,
// cut anywhere (mid-word, mid-`<cite`, mid-`**`), which is exactly what the
// renderer's tail must cope with.

const TICK_MS = 20;

/** A small seeded PRNG (mulberry32): a replay with the same seed cuts the same chunks. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Sends `text` to `onChunk` in chunks of 1–6 characters times `speed()`
 * (read at every tick, so the speed control acts at once). Resolves when the
 * text is sent; rejects with an AbortError when `signal` aborts.
 */
export function type(text, { onChunk, speed, seed, signal }) {
  const next = random(seed);
  let at = 0;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (signal.aborted) {
        clearInterval(timer);
        reject(signal.reason);
        return;
      }
      const size = Math.max(1, Math.round((1 + next() * 5) * speed()));
      // A cut may split a surrogate pair: the stream holds half a pair back.
      const end = Math.min(text.length, at + size);
      onChunk(text.slice(at, end));
      at = end;
      if (at >= text.length) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
}

/** Waits `ms`, unless `signal` aborts first. */
export function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
