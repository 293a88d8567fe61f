/**
 * A phrasebook: everyday sentences in several languages, each row one meaning. A simulated translation of a
 * sentence it holds is the sentence of the target language, and its detected source is the row's language.
 */

type Row = Readonly<Record<string, string>>;

const ROWS: readonly Row[] = [
  { en: "Where is the nearest pharmacy?", de: "Wo ist die nächste Apotheke?", fr: "Où est la pharmacie la plus proche ?", es: "¿Dónde está la farmacia más cercana?", pt: "Onde fica a farmácia mais próxima?", it: "Dov'è la farmacia più vicina?", nl: "Waar is de dichtstbijzijnde apotheek?" },
  { en: "How much does this cost?", de: "Wie viel kostet das?", fr: "Combien ça coûte ?", es: "¿Cuánto cuesta esto?", pt: "Quanto custa isto?", it: "Quanto costa questo?", nl: "Hoeveel kost dit?" },
  { en: "The meeting is moved to Thursday.", de: "Das Meeting wird auf Donnerstag verschoben.", fr: "La réunion est déplacée à jeudi.", es: "La reunión se traslada al jueves.", pt: "A reunião foi transferida para quinta-feira.", it: "La riunione è spostata a giovedì.", nl: "De vergadering is verplaatst naar donderdag." },
  { en: "Could you send me the invoice?", de: "Könnten Sie mir die Rechnung schicken?", fr: "Pourriez-vous m'envoyer la facture ?", es: "¿Podría enviarme la factura?", pt: "Poderia enviar-me a fatura?", it: "Potrebbe inviarmi la fattura?", nl: "Kunt u mij de factuur sturen?" },
  { en: "Thank you for your help.", de: "Vielen Dank für Ihre Hilfe.", fr: "Merci pour votre aide.", es: "Gracias por su ayuda.", pt: "Obrigado pela ajuda.", it: "Grazie per il suo aiuto.", nl: "Bedankt voor uw hulp." },
  { en: "The train leaves at nine.", de: "Der Zug fährt um neun ab.", fr: "Le train part à neuf heures.", es: "El tren sale a las nueve.", pt: "O comboio parte às nove.", it: "Il treno parte alle nove.", nl: "De trein vertrekt om negen uur." },
  { en: "Please keep the receipt.", de: "Bitte bewahren Sie die Quittung auf.", fr: "Veuillez conserver le reçu.", es: "Por favor, guarde el recibo.", pt: "Por favor, guarde o recibo.", it: "Per favore, conservi la ricevuta.", nl: "Bewaar de bon alstublieft." },
  { en: "Is breakfast included?", de: "Ist das Frühstück inbegriffen?", fr: "Le petit-déjeuner est-il compris ?", es: "¿Está incluido el desayuno?", pt: "O pequeno-almoço está incluído?", it: "La colazione è inclusa?", nl: "Is het ontbijt inbegrepen?" },
  { en: "Where is the train station?", fr: "Où est la gare ?", de: "Wo ist der Bahnhof?", es: "¿Dónde está la estación de tren?", pt: "Onde fica a estação de comboios?", it: "Dov'è la stazione?", nl: "Waar is het station?" },
  { en: "What time is it?", de: "Wie spät ist es?", fr: "Quelle heure est-il ?", es: "¿Qué hora es?", pt: "Que horas são?", it: "Che ore sono?", nl: "Hoe laat is het?" },
  { en: "Where is the bathroom?", es: "¿Dónde está el baño?", de: "Wo ist die Toilette?", fr: "Où sont les toilettes ?", pt: "Onde fica a casa de banho?", it: "Dov'è il bagno?", nl: "Waar is de wc?" },
  { en: "Where is the museum?", it: "Dov'è il museo?", de: "Wo ist das Museum?", fr: "Où est le musée ?", es: "¿Dónde está el museo?", pt: "Onde fica o museu?", nl: "Waar is het museum?" },
  { en: "Good morning, how are you?", nl: "Goedemorgen, hoe gaat het?", de: "Guten Morgen, wie geht es Ihnen?", fr: "Bonjour, comment allez-vous ?", es: "Buenos días, ¿cómo está?", pt: "Bom dia, como está?", it: "Buongiorno, come sta?" },
  { en: "I would like a coffee, please.", sv: "Jag vill ha en kaffe, tack.", de: "Ich hätte gern einen Kaffee, bitte.", fr: "Je voudrais un café, s'il vous plaît.", es: "Quisiera un café, por favor.", pt: "Queria um café, por favor.", it: "Vorrei un caffè, per favore.", nl: "Ik wil graag een koffie, alstublieft." },
  { en: "I would like the bill, please.", de: "Ich hätte gern die Rechnung.", fr: "Je voudrais l'addition, s'il vous plaît.", es: "Quisiera la cuenta, por favor.", pt: "Queria a conta, por favor.", it: "Vorrei il conto, per favore.", nl: "Ik wil graag de rekening." },
];

function key(s: string): string {
  return s.normalize("NFC").toLowerCase().replace(/[\s.?!¿¡,]+/g, " ").trim();
}

const INDEX = new Map<string, { row: Row; language: string }>();
for (const row of ROWS) for (const [language, text] of Object.entries(row)) INDEX.set(key(text), { row, language });

/** The phrasebook's sentences of one language (English by default). */
export function phrases(language = "en"): string[] {
  return ROWS.map((r) => r[language]).filter((s): s is string => s !== undefined);
}

/** A sentence of the phrasebook: its language, and its translation into `target` (`pt-BR` reads as `pt`) if the book has it. */
export function translatePhrase(text: string, target: string): { source: string; text?: string } | undefined {
  const hit = INDEX.get(key(text));
  if (!hit) return undefined;
  const translated = hit.row[target.slice(0, 2).toLowerCase()];
  return translated !== undefined ? { source: hit.language, text: translated } : { source: hit.language };
}
