/** `array` copied into one of at least `size` entries, doubling as it grows (1,024 at least): per-slot tables grow as slots are added. */
export function grown(array: Uint32Array, size: number): Uint32Array {
  const larger = new Uint32Array(Math.max(size, array.length * 2, 1024));
  larger.set(array);
  return larger;
}
