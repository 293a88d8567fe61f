/**
 * A few concepts (the words of a support desk or a shop) in seven languages: the entries of glossaries between two
 * languages. The user plans glossaries from them; an answer's glossary entries are made to agree with the languages
 * the glossary says it is between, and the audit judges those entries by them.
 */

/** A word for each of a few concepts, by ISO 639-1 code. */
export const TERMS: ReadonlyArray<Readonly<Record<string, string>>> = [
  { en: "ticket", de: "Vorgang", fr: "ticket", es: "incidencia", pt: "chamado", it: "segnalazione", nl: "melding" },
  { en: "invoice", de: "Rechnung", fr: "facture", es: "factura", pt: "fatura", it: "fattura", nl: "factuur" },
  { en: "refund", de: "Rückerstattung", fr: "remboursement", es: "reembolso", pt: "reembolso", it: "rimborso", nl: "terugbetaling" },
  { en: "account", de: "Konto", fr: "compte", es: "cuenta", pt: "conta", it: "conto", nl: "rekening" },
  { en: "delivery", de: "Lieferung", fr: "livraison", es: "entrega", pt: "entrega", it: "consegna", nl: "levering" },
  { en: "password", de: "Passwort", fr: "mot de passe", es: "contraseña", pt: "senha", it: "password", nl: "wachtwoord" },
  { en: "order", de: "Bestellung", fr: "commande", es: "pedido", pt: "pedido", it: "ordine", nl: "bestelling" },
  { en: "warranty", de: "Garantie", fr: "garantie", es: "garantía", pt: "garantia", it: "garanzia", nl: "garantie" },
];

/** The primary language of a language tag (`pt-BR` -> `pt`). */
export function primaryLanguage(tag: string): string {
  return tag.slice(0, 2).toLowerCase();
}

/** The concept a word names, if it is one of the terms, in any of its languages (case-insensitive). */
export function termOf(word: string): Readonly<Record<string, string>> | undefined {
  const w = word.trim().toLowerCase();
  return TERMS.find((t) => Object.values(t).some((x) => x.toLowerCase() === w));
}

/** The languages a word is a term of (`pedido`: es and pt); empty for a word no term has. */
export function termLanguages(word: string): string[] {
  const t = termOf(word);
  const w = word.trim().toLowerCase();
  return t === undefined ? [] : Object.entries(t).filter(([, x]) => x.toLowerCase() === w).map(([l]) => l);
}
