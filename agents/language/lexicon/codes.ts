/** Codes that appear in requests as values: currencies and languages. */

/** ISO 4217 codes common enough to read as currencies wherever they appear (they also index as "currency"). */
export const CURRENCY_CODES: ReadonlySet<string> = new Set([
  "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "CNY", "INR", "SEK", "NOK", "DKK", "PLN", "BRL", "MXN", "ZAR", "KRW", "SGD", "HKD",
  "TRY", "RUB",
]);

/** ISO 639-1 codes that are not also everyday English words. */
export const LANGUAGE_CODES: ReadonlySet<string> = new Set([
  "en", "de", "fr", "es", "pt", "nl", "sv", "da", "fi", "pl", "cs", "ru", "uk", "tr", "el", "ar", "hi", "ja", "ko", "zh", "th", "vi", "ms", "ro",
  "hu", "bg", "hr", "sk", "sl", "et", "lv", "lt", "ca", "eu", "gl", "ga", "cy", "fa", "ur", "bn", "ta", "te", "sw", "af", "nb", "nn",
]);

/** Two-letter words that are no country or language code in running text ("it", "is", "to"). */
export const AMBIGUOUS_CODES: readonly string[] = ["it", "is", "as", "be", "in", "no", "on", "to", "or", "an", "at", "by", "he", "we", "me", "my", "so", "do", "go", "up", "us", "am", "if", "of"];
