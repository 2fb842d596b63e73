/**
 * Where the example server gets bitcoin prices from. The server takes any {@link PriceSource};
 * the default, {@link snapshotPriceSource}, reads a JSON file shipped next to this one, so the
 * example runs without network.
 */
import { readFile } from 'node:fs/promises';

/** One price of one bitcoin, with where it came from. */
export interface PriceQuote {
  /** ISO 4217 code, upper case (`USD`). */
  currency: string;
  /** The price of 1 BTC in that currency. */
  price: number;
  /** When the price was taken (ISO 8601). */
  asOf: string;
  /** Where the price comes from, shown to the user and the model (`offline snapshot`). */
  source: string;
}

/** A pluggable source of bitcoin prices. */
export interface PriceSource {
  /** The price of 1 BTC in `currency`, or `undefined` when the source does not know that currency. */
  quote(currency: string): Promise<PriceQuote | undefined>;
  /** Every currency the source can price, upper case. */
  currencies(): Promise<readonly string[]>;
}

/** The snapshot shipped with the example. */
export const DEFAULT_SNAPSHOT = new URL('./bitcoin-prices.snapshot.json', import.meta.url);

interface Snapshot {
  label: string;
  asOf: string;
  prices: Record<string, number>;
}

function parseSnapshot(text: string, file: URL | string): Snapshot {
  const value: unknown = JSON.parse(text);
  const { label, asOf, prices } = (value ?? {}) as Partial<Snapshot>;
  const pricesOk =
    typeof prices === 'object' &&
    prices !== null &&
    Object.values(prices).every((p) => typeof p === 'number' && Number.isFinite(p));
  if (typeof label !== 'string' || typeof asOf !== 'string' || !pricesOk) {
    throw new Error(`${String(file)}: expected {label, asOf, prices: {CODE: number}}`);
  }
  return { label, asOf, prices };
}

/**
 * A price source reading a snapshot JSON file (`{label, asOf, prices: {USD: 98250.12, ...}}`),
 * read once on first use. Its quotes carry the snapshot's label, `offline snapshot` for the
 * file shipped with the example.
 *
 * @example
 * ```ts
 * const prices = snapshotPriceSource();
 * await prices.quote('eur'); // {currency: 'EUR', price: 90310.55, asOf: '2026-11-01T00:00:00Z', source: 'offline snapshot'}
 * ```
 */
export function snapshotPriceSource(file: URL | string = DEFAULT_SNAPSHOT): PriceSource {
  let snapshot: Promise<Snapshot> | undefined;
  const load = (): Promise<Snapshot> => {
    snapshot ??= readFile(file, 'utf8').then((text) => parseSnapshot(text, file));
    return snapshot;
  };
  return {
    async quote(currency) {
      const { label, asOf, prices } = await load();
      const code = currency.trim().toUpperCase();
      const price = Object.hasOwn(prices, code) ? prices[code] : undefined;
      return price === undefined ? undefined : { currency: code, price, asOf, source: label };
    },
    async currencies() {
      return Object.keys((await load()).prices).sort();
    },
  };
}
