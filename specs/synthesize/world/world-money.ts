/**
 * Reference exchange rates of the world's currencies (units per US dollar, mid-2025), so that a simulated
 * rate, conversion or rate table is the pair's own: GBP -> PLN is about 5, not JPY's 150. Rates of one day
 * differ from another's by a small seeded drift, as real reference rates do.
 */

const PER_USD: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.92, GBP: 0.79, JPY: 150.2, CHF: 0.88, CAD: 1.36, AUD: 1.52, NZD: 1.66, CNY: 7.2, HKD: 7.8,
  SGD: 1.34, INR: 83.5, KRW: 1350, SEK: 10.5, NOK: 10.6, DKK: 6.87, PLN: 3.95, CZK: 23.1, HUF: 360, RON: 4.6,
  TRY: 32.4, BRL: 5.05, MXN: 17.1, ARS: 905, CLP: 930, COP: 3900, PEN: 3.75, ZAR: 18.5, ILS: 3.7, AED: 3.6725,
  SAR: 3.75, EGP: 48.2, MAD: 10.0, NGN: 1500, KES: 130, GHS: 15.2, THB: 36.4, VND: 25400, IDR: 16100,
  MYR: 4.7, PHP: 57.3, UAH: 41.2, ISK: 138, BGN: 1.8, RUB: 90, TWD: 32.3, QAR: 3.64, KWD: 0.307, BHD: 0.376,
};

/** Currencies with no minor unit (amounts in whole units). */
const NO_DECIMALS = new Set(["JPY", "KRW", "VND", "IDR", "CLP", "ISK", "HUF", "COP"]);

/** Whether the world has a reference rate for a currency code. */
export function knowsCurrency(code: string): boolean {
  return PER_USD[code.toUpperCase()] !== undefined;
}

/** Units of `to` per one `from`, with a drift of at most ±0.6% that `day` (any text) chooses; undefined for an unknown code. */
export function exchangeRate(from: string, to: string, day = ""): number | undefined {
  const a = PER_USD[from.toUpperCase()];
  const b = PER_USD[to.toUpperCase()];
  if (a === undefined || b === undefined) return undefined;
  if (from.toUpperCase() === to.toUpperCase()) return 1;
  let h = 2166136261;
  for (const c of `${from}${to}${day}`.toUpperCase()) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  const drift = 1 + (((h >>> 0) % 1200) - 600) / 100000;
  return significant((b / a) * drift);
}

/** A rate with five significant digits (0.7721, 5.0127, 190.11). */
function significant(n: number): number {
  if (n === 0) return 0;
  const digits = Math.max(0, 4 - Math.floor(Math.log10(Math.abs(n))));
  return Number(n.toFixed(Math.min(digits, 8)));
}

/** An amount rounded to a currency's minor unit. */
export function roundMoney(amount: number, currency: string): number {
  return NO_DECIMALS.has(currency.toUpperCase()) ? Math.round(amount) : Math.round(amount * 100) / 100;
}
