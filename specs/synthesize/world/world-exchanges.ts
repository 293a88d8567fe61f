/**
 * Stock exchanges of the world: where each is, its currency and time zone, and its regular session in local
 * time, so that an answer about an exchange (or a security listed on one) keeps them together.
 */

/** One exchange. */
export interface Exchange {
  /** Its usual code (`NASDAQ`, `LSE`). */
  code: string;
  name: string;
  /** ISO 3166-1 alpha-2 of its country. */
  countryCode: string;
  currency: string;
  timeZone: string;
  /** Regular session, local `HH:MM`. */
  open: string;
  close: string;
}

const ROWS = `
NYSE|New York Stock Exchange|US|USD|America/New_York|09:30|16:00
NASDAQ|Nasdaq Stock Market|US|USD|America/New_York|09:30|16:00
AMEX|NYSE American|US|USD|America/New_York|09:30|16:00
TSX|Toronto Stock Exchange|CA|CAD|America/Toronto|09:30|16:00
BMV|Mexican Stock Exchange|MX|MXN|America/Mexico_City|08:30|15:00
B3|B3|BR|BRL|America/Sao_Paulo|10:00|17:00
LSE|London Stock Exchange|GB|GBP|Europe/London|08:00|16:30
XETRA|Xetra|DE|EUR|Europe/Berlin|09:00|17:30
FWB|Frankfurt Stock Exchange|DE|EUR|Europe/Berlin|08:00|22:00
EURONEXT|Euronext Paris|FR|EUR|Europe/Paris|09:00|17:30
EPA|Euronext Paris|FR|EUR|Europe/Paris|09:00|17:30
AMS|Euronext Amsterdam|NL|EUR|Europe/Amsterdam|09:00|17:30
BME|Bolsa de Madrid|ES|EUR|Europe/Madrid|09:00|17:30
BIT|Borsa Italiana|IT|EUR|Europe/Rome|09:00|17:30
SIX|SIX Swiss Exchange|CH|CHF|Europe/Zurich|09:00|17:30
OMX|Nasdaq Stockholm|SE|SEK|Europe/Stockholm|09:00|17:30
OSE|Oslo Stock Exchange|NO|NOK|Europe/Oslo|09:00|16:20
WSE|Warsaw Stock Exchange|PL|PLN|Europe/Warsaw|09:00|17:00
TSE|Tokyo Stock Exchange|JP|JPY|Asia/Tokyo|09:00|15:00
JPX|Japan Exchange Group|JP|JPY|Asia/Tokyo|09:00|15:00
HKEX|Hong Kong Stock Exchange|HK|HKD|Asia/Hong_Kong|09:30|16:00
SSE|Shanghai Stock Exchange|CN|CNY|Asia/Shanghai|09:30|15:00
SZSE|Shenzhen Stock Exchange|CN|CNY|Asia/Shanghai|09:30|15:00
KRX|Korea Exchange|KR|KRW|Asia/Seoul|09:00|15:30
NSE|National Stock Exchange of India|IN|INR|Asia/Kolkata|09:15|15:30
BSE|BSE|IN|INR|Asia/Kolkata|09:15|15:30
SGX|Singapore Exchange|SG|SGD|Asia/Singapore|09:00|17:00
ASX|Australian Securities Exchange|AU|AUD|Australia/Sydney|10:00|16:00
NZX|New Zealand Exchange|NZ|NZD|Pacific/Auckland|10:00|16:45
JSE|Johannesburg Stock Exchange|ZA|ZAR|Africa/Johannesburg|09:00|17:00
TADAWUL|Saudi Exchange|SA|SAR|Asia/Riyadh|10:00|15:00
`;

const EXCHANGES = new Map<string, Exchange>();
for (const line of ROWS.split("\n")) {
  const [code, name, countryCode, currency, timeZone, open, close] = line.split("|");
  if (code === undefined || name === undefined || countryCode === undefined || currency === undefined || timeZone === undefined || open === undefined || close === undefined) continue;
  EXCHANGES.set(code, { code, name, countryCode, currency, timeZone, open, close });
}

/** The exchange a code or name names (`nasdaq`, `London Stock Exchange`), if the world knows it. */
export function findExchange(value: string): Exchange | undefined {
  const v = value.trim().toUpperCase();
  return EXCHANGES.get(v) ?? [...EXCHANGES.values()].find((e) => e.name.toUpperCase() === v);
}

/** The UTC offset (`-04:00`) of a time zone on a day (`2025-06-16`). */
export function offsetOn(timeZone: string, day: string): string | undefined {
  const at = Date.parse(`${day}T12:00:00Z`);
  if (!Number.isFinite(at)) return undefined;
  try {
    const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
    if (part === undefined) return undefined;
    if (part === "GMT") return "+00:00";
    const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(part);
    return m ? `${m[1]}:${m[2] ?? "00"}` : undefined;
  } catch {
    return undefined;
  }
}

/** An exchange's regular session as seen at one moment: open or not, and when it next opens and closes (local time, with the offset). */
export interface SessionState {
  isOpen: boolean;
  nextOpen: string;
  nextClose: string;
}

const DAY_MS = 86_400_000;

function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/**
 * The session of an exchange at a moment (weekdays only; holidays are not known): open between its open and close
 * on a weekday; its next open is the next weekday's (today's when it has not opened yet), its next close the
 * session's in progress or the next one's.
 */
export function sessionAt(exchange: Exchange, at: number): SessionState | undefined {
  const local = (ms: number): { day: string; minutes: number; weekday: number; offset: string } | undefined => {
    const day = new Date(ms).toISOString().slice(0, 10);
    const offset = offsetOn(exchange.timeZone, day);
    if (offset === undefined) return undefined;
    const sign = offset.startsWith("-") ? -1 : 1;
    const shifted = new Date(ms + sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000);
    return { day: shifted.toISOString().slice(0, 10), minutes: shifted.getUTCHours() * 60 + shifted.getUTCMinutes(), weekday: shifted.getUTCDay(), offset };
  };
  const now = local(at);
  if (now === undefined) return undefined;
  const open = minutesOf(exchange.open);
  const close = minutesOf(exchange.close);
  const weekday = now.weekday >= 1 && now.weekday <= 5;
  const isOpen = weekday && now.minutes >= open && now.minutes < close;
  const stamp = (dayOffset: number, hhmm: string): string | undefined => {
    const day = new Date(Date.parse(`${now.day}T00:00:00Z`) + dayOffset * DAY_MS).toISOString().slice(0, 10);
    const offset = offsetOn(exchange.timeZone, day);
    return offset === undefined ? undefined : `${day}T${hhmm}:00${offset}`;
  };
  // The first weekday from `from` days ahead.
  const nextWeekday = (from: number): number => {
    let d = from;
    for (let i = 0; i < 7; i++, d++) {
      const w = (now.weekday + d) % 7;
      if (w >= 1 && w <= 5) return d;
    }
    return d;
  };
  const openDay = nextWeekday(weekday && now.minutes < open ? 0 : 1);
  const closeDay = isOpen ? 0 : openDay;
  const nextOpen = stamp(openDay, exchange.open);
  const nextClose = stamp(closeDay, exchange.close);
  return nextOpen === undefined || nextClose === undefined ? undefined : { isOpen, nextOpen, nextClose };
}
