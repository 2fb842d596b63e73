/**
 * Runs async work over a list with at most `concurrency` items in flight, keeping input order.
 */

/**
 * Maps `items` through `work`, at most `concurrency` at a time; results are in input order.
 * `work` must not reject: the pool does not catch (callers turn failures into values).
 *
 * @example
 * ```ts
 * const sizes = await mapConcurrent(files, 4, async (file) => (await stat(file)).size);
 * ```
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (items.length <= concurrency) return Promise.all(items.map(work));
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  const width = Math.max(1, Math.min(Math.floor(concurrency), items.length));
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}
