import { faker as englishFaker } from "@faker-js/faker/locale/en";
import { greatCircleKm } from "./great-circle.js";

/**
 * Reference data of the simulated world: countries, currencies, languages, cities with their coordinates,
 * airports. Synthesis picks coherent rows from it (a city with its country and coordinates), and checks of
 * plausibility (the tester, the audit) read it to tell a real code or name from filler.
 */

/** A country as values draw it: codes, name, continent, capital, currency, main language, calling code. */
/** Memo of `fold` (bounded). */
const folds = new Map<string, string>();

export interface Country {
  alpha2: string;
  alpha3: string;
  name: string;
  region: string;
  subregion: string;
  capital: string;
  currency: string;
  language: string;
  callingCode: string;
  population: number;
}

/** A city with its country and coordinates. */
export interface City {
  name: string;
  country: string;
  /** ISO 3166-1 alpha-2 of its country. */
  countryCode: string;
  lat: number;
  lon: number;
  timeZone: string;
  population: number;
}

/** An airport by IATA code, with its city. */
export interface Airport {
  iata: string;
  /** Its ICAO code (`LPPT`). */
  icao: string;
  name: string;
  city: string;
  countryCode: string;
}

// alpha2|alpha3|name|region|subregion|capital|currency|language|calling code|population (millions)
const COUNTRY_ROWS = `
US|USA|United States|Americas|North America|Washington|USD|en|+1|333
CA|CAN|Canada|Americas|North America|Ottawa|CAD|en|+1|39
MX|MEX|Mexico|Americas|Central America|Mexico City|MXN|es|+52|128
BR|BRA|Brazil|Americas|South America|Brasília|BRL|pt|+55|215
AR|ARG|Argentina|Americas|South America|Buenos Aires|ARS|es|+54|46
CL|CHL|Chile|Americas|South America|Santiago|CLP|es|+56|19
CO|COL|Colombia|Americas|South America|Bogotá|COP|es|+57|52
PE|PER|Peru|Americas|South America|Lima|PEN|es|+51|34
GB|GBR|United Kingdom|Europe|Northern Europe|London|GBP|en|+44|67
IE|IRL|Ireland|Europe|Northern Europe|Dublin|EUR|en|+353|5
FR|FRA|France|Europe|Western Europe|Paris|EUR|fr|+33|68
DE|DEU|Germany|Europe|Western Europe|Berlin|EUR|de|+49|84
NL|NLD|Netherlands|Europe|Western Europe|Amsterdam|EUR|nl|+31|18
BE|BEL|Belgium|Europe|Western Europe|Brussels|EUR|nl|+32|12
CH|CHE|Switzerland|Europe|Western Europe|Bern|CHF|de|+41|9
AT|AUT|Austria|Europe|Western Europe|Vienna|EUR|de|+43|9
ES|ESP|Spain|Europe|Southern Europe|Madrid|EUR|es|+34|48
PT|PRT|Portugal|Europe|Southern Europe|Lisbon|EUR|pt|+351|10
IT|ITA|Italy|Europe|Southern Europe|Rome|EUR|it|+39|59
GR|GRC|Greece|Europe|Southern Europe|Athens|EUR|el|+30|10
SE|SWE|Sweden|Europe|Northern Europe|Stockholm|SEK|sv|+46|10
NO|NOR|Norway|Europe|Northern Europe|Oslo|NOK|no|+47|5
DK|DNK|Denmark|Europe|Northern Europe|Copenhagen|DKK|da|+45|6
FI|FIN|Finland|Europe|Northern Europe|Helsinki|EUR|fi|+358|6
IS|ISL|Iceland|Europe|Northern Europe|Reykjavik|ISK|is|+354|0.4
PL|POL|Poland|Europe|Eastern Europe|Warsaw|PLN|pl|+48|37
CZ|CZE|Czechia|Europe|Eastern Europe|Prague|CZK|cs|+420|11
HU|HUN|Hungary|Europe|Eastern Europe|Budapest|HUF|hu|+36|10
RO|ROU|Romania|Europe|Eastern Europe|Bucharest|RON|ro|+40|19
UA|UKR|Ukraine|Europe|Eastern Europe|Kyiv|UAH|uk|+380|38
TR|TUR|Türkiye|Asia|Western Asia|Ankara|TRY|tr|+90|85
JP|JPN|Japan|Asia|Eastern Asia|Tokyo|JPY|ja|+81|125
CN|CHN|China|Asia|Eastern Asia|Beijing|CNY|zh|+86|1412
KR|KOR|South Korea|Asia|Eastern Asia|Seoul|KRW|ko|+82|52
IN|IND|India|Asia|Southern Asia|New Delhi|INR|hi|+91|1417
SG|SGP|Singapore|Asia|South-eastern Asia|Singapore|SGD|en|+65|6
TH|THA|Thailand|Asia|South-eastern Asia|Bangkok|THB|th|+66|72
VN|VNM|Vietnam|Asia|South-eastern Asia|Hanoi|VND|vi|+84|99
ID|IDN|Indonesia|Asia|South-eastern Asia|Jakarta|IDR|id|+62|276
MY|MYS|Malaysia|Asia|South-eastern Asia|Kuala Lumpur|MYR|ms|+60|34
PH|PHL|Philippines|Asia|South-eastern Asia|Manila|PHP|en|+63|116
AE|ARE|United Arab Emirates|Asia|Western Asia|Abu Dhabi|AED|ar|+971|10
IL|ISR|Israel|Asia|Western Asia|Jerusalem|ILS|he|+972|10
SA|SAU|Saudi Arabia|Asia|Western Asia|Riyadh|SAR|ar|+966|36
EG|EGY|Egypt|Africa|Northern Africa|Cairo|EGP|ar|+20|111
MA|MAR|Morocco|Africa|Northern Africa|Rabat|MAD|ar|+212|37
NG|NGA|Nigeria|Africa|Western Africa|Abuja|NGN|en|+234|218
GH|GHA|Ghana|Africa|Western Africa|Accra|GHS|en|+233|33
KE|KEN|Kenya|Africa|Eastern Africa|Nairobi|KES|en|+254|54
ZA|ZAF|South Africa|Africa|Southern Africa|Pretoria|ZAR|en|+27|60
AU|AUS|Australia|Oceania|Australia and New Zealand|Canberra|AUD|en|+61|26
NZ|NZL|New Zealand|Oceania|Australia and New Zealand|Wellington|NZD|en|+64|5
`;

// name|country alpha2|lat|lon|time zone|population (thousands)
const CITY_ROWS = `
New York|US|40.7128|-74.006|America/New_York|8336
Los Angeles|US|34.0522|-118.2437|America/Los_Angeles|3822
Chicago|US|41.8781|-87.6298|America/Chicago|2665
San Francisco|US|37.7749|-122.4194|America/Los_Angeles|808
Seattle|US|47.6062|-122.3321|America/Los_Angeles|749
Boston|US|42.3601|-71.0589|America/New_York|650
Washington|US|38.9072|-77.0369|America/New_York|671
Toronto|CA|43.6532|-79.3832|America/Toronto|2794
Vancouver|CA|49.2827|-123.1207|America/Vancouver|662
Ottawa|CA|45.4215|-75.6972|America/Toronto|1017
Mexico City|MX|19.4326|-99.1332|America/Mexico_City|9209
São Paulo|BR|-23.5505|-46.6333|America/Sao_Paulo|12325
Rio de Janeiro|BR|-22.9068|-43.1729|America/Sao_Paulo|6748
Brasília|BR|-15.7939|-47.8828|America/Sao_Paulo|3094
Buenos Aires|AR|-34.6037|-58.3816|America/Argentina/Buenos_Aires|3121
Santiago|CL|-33.4489|-70.6693|America/Santiago|6257
Bogotá|CO|4.711|-74.0721|America/Bogota|7181
Lima|PE|-12.0464|-77.0428|America/Lima|10004
London|GB|51.5074|-0.1278|Europe/London|8982
Manchester|GB|53.4808|-2.2426|Europe/London|553
Edinburgh|GB|55.9533|-3.1883|Europe/London|527
Dublin|IE|53.3498|-6.2603|Europe/Dublin|1173
Paris|FR|48.8566|2.3522|Europe/Paris|2161
Lyon|FR|45.764|4.8357|Europe/Paris|516
Marseille|FR|43.2965|5.3698|Europe/Paris|870
Berlin|DE|52.52|13.405|Europe/Berlin|3645
Munich|DE|48.1351|11.582|Europe/Berlin|1488
Hamburg|DE|53.5511|9.9937|Europe/Berlin|1841
Amsterdam|NL|52.3676|4.9041|Europe/Amsterdam|872
Rotterdam|NL|51.9244|4.4777|Europe/Amsterdam|651
Brussels|BE|50.8503|4.3517|Europe/Brussels|1209
Zurich|CH|47.3769|8.5417|Europe/Zurich|421
Geneva|CH|46.2044|6.1432|Europe/Zurich|203
Bern|CH|46.948|7.4474|Europe/Zurich|134
Vienna|AT|48.2082|16.3738|Europe/Vienna|1897
Madrid|ES|40.4168|-3.7038|Europe/Madrid|3223
Barcelona|ES|41.3874|2.1686|Europe/Madrid|1620
Seville|ES|37.3891|-5.9845|Europe/Madrid|688
Lisbon|PT|38.7223|-9.1393|Europe/Lisbon|545
Porto|PT|41.1579|-8.6291|Europe/Lisbon|232
Rome|IT|41.9028|12.4964|Europe/Rome|2873
Milan|IT|45.4642|9.19|Europe/Rome|1352
Naples|IT|40.8518|14.2681|Europe/Rome|914
Athens|GR|37.9838|23.7275|Europe/Athens|664
Stockholm|SE|59.3293|18.0686|Europe/Stockholm|975
Oslo|NO|59.9139|10.7522|Europe/Oslo|697
Copenhagen|DK|55.6761|12.5683|Europe/Copenhagen|644
Helsinki|FI|60.1699|24.9384|Europe/Helsinki|658
Reykjavik|IS|64.1466|-21.9426|Atlantic/Reykjavik|131
Warsaw|PL|52.2297|21.0122|Europe/Warsaw|1794
Krakow|PL|50.0647|19.945|Europe/Warsaw|780
Prague|CZ|50.0755|14.4378|Europe/Prague|1309
Budapest|HU|47.4979|19.0402|Europe/Budapest|1752
Bucharest|RO|44.4268|26.1025|Europe/Bucharest|1716
Kyiv|UA|50.4501|30.5234|Europe/Kyiv|2952
Istanbul|TR|41.0082|28.9784|Europe/Istanbul|15462
Ankara|TR|39.9334|32.8597|Europe/Istanbul|5663
Tokyo|JP|35.6762|139.6503|Asia/Tokyo|13960
Osaka|JP|34.6937|135.5023|Asia/Tokyo|2725
Kyoto|JP|35.0116|135.7681|Asia/Tokyo|1464
Beijing|CN|39.9042|116.4074|Asia/Shanghai|21540
Shanghai|CN|31.2304|121.4737|Asia/Shanghai|24870
Seoul|KR|37.5665|126.978|Asia/Seoul|9776
Busan|KR|35.1796|129.0756|Asia/Seoul|3429
New Delhi|IN|28.6139|77.209|Asia/Kolkata|21750
Mumbai|IN|19.076|72.8777|Asia/Kolkata|20411
Bengaluru|IN|12.9716|77.5946|Asia/Kolkata|8443
Singapore|SG|1.3521|103.8198|Asia/Singapore|5454
Bangkok|TH|13.7563|100.5018|Asia/Bangkok|10539
Hanoi|VN|21.0278|105.8342|Asia/Ho_Chi_Minh|8053
Jakarta|ID|-6.2088|106.8456|Asia/Jakarta|10562
Kuala Lumpur|MY|3.139|101.6869|Asia/Kuala_Lumpur|1982
Manila|PH|14.5995|120.9842|Asia/Manila|1846
Dubai|AE|25.2048|55.2708|Asia/Dubai|3331
Abu Dhabi|AE|24.4539|54.3773|Asia/Dubai|1483
Tel Aviv|IL|32.0853|34.7818|Asia/Jerusalem|460
Riyadh|SA|24.7136|46.6753|Asia/Riyadh|7676
Cairo|EG|30.0444|31.2357|Africa/Cairo|9540
Marrakesh|MA|31.6295|-7.9811|Africa/Casablanca|929
Lagos|NG|6.5244|3.3792|Africa/Lagos|15388
Accra|GH|5.6037|-0.187|Africa/Accra|2514
Nairobi|KE|-1.2921|36.8219|Africa/Nairobi|4397
Cape Town|ZA|-33.9249|18.4241|Africa/Johannesburg|4618
Johannesburg|ZA|-26.2041|28.0473|Africa/Johannesburg|5635
Sydney|AU|-33.8688|151.2093|Australia/Sydney|5312
Melbourne|AU|-37.8136|144.9631|Australia/Melbourne|5078
Brisbane|AU|-27.4698|153.0251|Australia/Brisbane|2560
Auckland|NZ|-36.8485|174.7633|Pacific/Auckland|1657
Wellington|NZ|-41.2865|174.7762|Pacific/Auckland|215
`;

// IATA|airport|city|country alpha2
const AIRPORT_ROWS = `
JFK|John F. Kennedy International Airport|New York|US|KJFK
LAX|Los Angeles International Airport|Los Angeles|US|KLAX
ORD|O'Hare International Airport|Chicago|US|KORD
SFO|San Francisco International Airport|San Francisco|US|KSFO
SEA|Seattle-Tacoma International Airport|Seattle|US|KSEA
BOS|Logan International Airport|Boston|US|KBOS
YYZ|Toronto Pearson International Airport|Toronto|CA|CYYZ
YVR|Vancouver International Airport|Vancouver|CA|CYVR
MEX|Mexico City International Airport|Mexico City|MX|MMMX
GRU|São Paulo/Guarulhos International Airport|São Paulo|BR|SBGR
EZE|Ministro Pistarini International Airport|Buenos Aires|AR|SAEZ
LHR|Heathrow Airport|London|GB|EGLL
LGW|Gatwick Airport|London|GB|EGKK
DUB|Dublin Airport|Dublin|IE|EIDW
CDG|Paris Charles de Gaulle Airport|Paris|FR|LFPG
ORY|Paris Orly Airport|Paris|FR|LFPO
FRA|Frankfurt Airport|Frankfurt|DE|EDDF
MUC|Munich Airport|Munich|DE|EDDM
BER|Berlin Brandenburg Airport|Berlin|DE|EDDB
AMS|Amsterdam Airport Schiphol|Amsterdam|NL|EHAM
BRU|Brussels Airport|Brussels|BE|EBBR
ZRH|Zurich Airport|Zurich|CH|LSZH
VIE|Vienna International Airport|Vienna|AT|LOWW
MAD|Adolfo Suárez Madrid-Barajas Airport|Madrid|ES|LEMD
BCN|Josep Tarradellas Barcelona-El Prat Airport|Barcelona|ES|LEBL
LIS|Humberto Delgado Airport|Lisbon|PT|LPPT
OPO|Francisco Sá Carneiro Airport|Porto|PT|LPPR
FCO|Leonardo da Vinci-Fiumicino Airport|Rome|IT|LIRF
MXP|Milan Malpensa Airport|Milan|IT|LIMC
ATH|Athens International Airport|Athens|GR|LGAV
ARN|Stockholm Arlanda Airport|Stockholm|SE|ESSA
OSL|Oslo Airport, Gardermoen|Oslo|NO|ENGM
CPH|Copenhagen Airport|Copenhagen|DK|EKCH
HEL|Helsinki Airport|Helsinki|FI|EFHK
KEF|Keflavík International Airport|Reykjavik|IS|BIKF
WAW|Warsaw Chopin Airport|Warsaw|PL|EPWA
PRG|Václav Havel Airport Prague|Prague|CZ|LKPR
IST|Istanbul Airport|Istanbul|TR|LTFM
HND|Haneda Airport|Tokyo|JP|RJTT
NRT|Narita International Airport|Tokyo|JP|RJAA
KIX|Kansai International Airport|Osaka|JP|RJBB
PEK|Beijing Capital International Airport|Beijing|CN|ZBAA
PVG|Shanghai Pudong International Airport|Shanghai|CN|ZSPD
ICN|Incheon International Airport|Seoul|KR|RKSI
DEL|Indira Gandhi International Airport|New Delhi|IN|VIDP
BOM|Chhatrapati Shivaji Maharaj International Airport|Mumbai|IN|VABB
SIN|Singapore Changi Airport|Singapore|SG|WSSS
BKK|Suvarnabhumi Airport|Bangkok|TH|VTBS
DXB|Dubai International Airport|Dubai|AE|OMDB
CAI|Cairo International Airport|Cairo|EG|HECA
NBO|Jomo Kenyatta International Airport|Nairobi|KE|HKJK
JNB|O. R. Tambo International Airport|Johannesburg|ZA|FAOR
CPT|Cape Town International Airport|Cape Town|ZA|FACT
SYD|Sydney Kingsford Smith Airport|Sydney|AU|YSSY
MEL|Melbourne Airport|Melbourne|AU|YMML
AKL|Auckland Airport|Auckland|NZ|NZAA
WLG|Wellington International Airport|Wellington|NZ|NZWN
BNE|Brisbane Airport|Brisbane|AU|YBBN
IAD|Washington Dulles International Airport|Washington|US|KIAD
DCA|Ronald Reagan Washington National Airport|Washington|US|KDCA
YOW|Ottawa Macdonald-Cartier International Airport|Ottawa|CA|CYOW
GIG|Rio de Janeiro/Galeão International Airport|Rio de Janeiro|BR|SBGL
BSB|Brasília International Airport|Brasília|BR|SBBR
SCL|Arturo Merino Benítez International Airport|Santiago|CL|SCEL
BOG|El Dorado International Airport|Bogotá|CO|SKBO
LIM|Jorge Chávez International Airport|Lima|PE|SPJC
MAN|Manchester Airport|Manchester|GB|EGCC
EDI|Edinburgh Airport|Edinburgh|GB|EGPH
STN|London Stansted Airport|London|GB|EGSS
LYS|Lyon-Saint Exupéry Airport|Lyon|FR|LFLL
MRS|Marseille Provence Airport|Marseille|FR|LFML
HAM|Hamburg Airport|Hamburg|DE|EDDH
RTM|Rotterdam The Hague Airport|Rotterdam|NL|EHRD
GVA|Geneva Airport|Geneva|CH|LSGG
SVQ|Seville Airport|Seville|ES|LEZL
LIN|Milan Linate Airport|Milan|IT|LIML
NAP|Naples International Airport|Naples|IT|LIRN
KRK|Kraków John Paul II International Airport|Krakow|PL|EPKK
BUD|Budapest Ferenc Liszt International Airport|Budapest|HU|LHBP
OTP|Henri Coandă International Airport|Bucharest|RO|LROP
KBP|Boryspil International Airport|Kyiv|UA|UKBB
ESB|Ankara Esenboğa Airport|Ankara|TR|LTAC
PUS|Gimhae International Airport|Busan|KR|RKPK
BLR|Kempegowda International Airport|Bengaluru|IN|VOBL
HAN|Noi Bai International Airport|Hanoi|VN|VVNB
CGK|Soekarno-Hatta International Airport|Jakarta|ID|WIII
KUL|Kuala Lumpur International Airport|Kuala Lumpur|MY|WMKK
MNL|Ninoy Aquino International Airport|Manila|PH|RPLL
AUH|Zayed International Airport|Abu Dhabi|AE|OMAA
TLV|Ben Gurion Airport|Tel Aviv|IL|LLBG
RUH|King Khalid International Airport|Riyadh|SA|OERK
RAK|Marrakesh Menara Airport|Marrakesh|MA|GMMX
LOS|Murtala Muhammed International Airport|Lagos|NG|DNMM
ACC|Kotoka International Airport|Accra|GH|DGAA
`;

function rows(text: string): string[][] {
  return text
    .trim()
    .split("\n")
    .map((l) => l.split("|"));
}

/** Countries with full rows (synthesis draws from these). */
export const COUNTRIES: readonly Country[] = rows(COUNTRY_ROWS).map(([alpha2, alpha3, name, region, subregion, capital, currency, language, callingCode, population]) => ({
  alpha2: alpha2 ?? "",
  alpha3: alpha3 ?? "",
  name: name ?? "",
  region: region ?? "",
  subregion: subregion ?? "",
  capital: capital ?? "",
  currency: currency ?? "",
  language: language ?? "",
  callingCode: callingCode ?? "",
  population: Math.round(Number(population) * 1_000_000),
}));

const countryByAlpha2 = new Map(COUNTRIES.map((c) => [c.alpha2, c]));

/** Cities with coordinates, country and time zone. */
export const CITIES: readonly City[] = rows(CITY_ROWS).map(([name, code, lat, lon, timeZone, population]) => ({
  name: name ?? "",
  countryCode: code ?? "",
  country: countryByAlpha2.get(code ?? "")?.name ?? code ?? "",
  lat: Number(lat),
  lon: Number(lon),
  timeZone: timeZone ?? "UTC",
  population: Number(population) * 1000,
}));

/** Airports by IATA code. */
export const AIRPORTS: readonly Airport[] = rows(AIRPORT_ROWS).map(([iata, name, city, countryCode, icao]) => ({ iata: iata ?? "", icao: icao ?? "", name: name ?? "", city: city ?? "", countryCode: countryCode ?? "" }));

const countryIndex = new Map<string, Country>();
for (const c of COUNTRIES) for (const k of [c.alpha2, c.alpha3, c.name]) countryIndex.set(k.toLowerCase(), c);
const cityIndex = new Map<string, City>();
for (const c of CITIES) if (!cityIndex.has(fold(c.name))) cityIndex.set(fold(c.name), c);

/** A country of the full rows by code (alpha-2 or alpha-3) or English name, case-insensitive. */
export function findCountry(value: string): Country | undefined {
  return value.length > 40 ? undefined : countryIndex.get(value.trim().toLowerCase());
}

/** A city of the table by name (case- and accent-insensitive). */
export function findCity(value: string): City | undefined {
  return value.length > 40 ? undefined : cityIndex.get(fold(value));
}

/** Lower case without accents: `Bogotá` -> `bogota`. */
export function fold(s: string): string {
  let hit = folds.get(s);
  if (hit === undefined) {
    // ASCII has no accents to take off (most text): no normalization.
    hit = (/^[\x00-\x7f]*$/.test(s) ? s : s.normalize("NFD").replace(/[\u0300-\u036f]/g, "")).trim().toLowerCase();
    if (folds.size > 20_000) folds.clear();
    folds.set(s, hit);
  }
  return hit;
}


// ---------------------------------------------------------------- codes and names (all of ISO, for checks)

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const currencyNames = new Intl.DisplayNames(["en"], { type: "currency", fallback: "none" });
const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

interface CodeTable {
  codes: Set<string>;
  names: Map<string, string>;
}

let countryTable: CodeTable | undefined;
let currencyTable: CodeTable | undefined;
let languageTable: CodeTable | undefined;

function countries(): CodeTable {
  if (countryTable) return countryTable;
  const codes = new Set<string>();
  const names = new Map<string, string>();
  const iso = englishFaker.rawDefinitions.location?.country_code as ReadonlyArray<{ alpha2: string; alpha3: string }> | undefined;
  for (const c of iso ?? []) {
    codes.add(c.alpha2);
    codes.add(c.alpha3);
    const name = regionNames.of(c.alpha2);
    if (name !== undefined) names.set(fold(name), c.alpha2);
  }
  for (const c of COUNTRIES) {
    codes.add(c.alpha2);
    codes.add(c.alpha3);
    names.set(fold(c.name), c.alpha2);
  }
  for (const n of (englishFaker.rawDefinitions.location?.country as readonly string[] | undefined) ?? []) if (!names.has(fold(n))) names.set(fold(n), "");
  // Common other names.
  for (const [n, code] of [["usa", "US"], ["united states of america", "US"], ["uk", "GB"], ["great britain", "GB"], ["england", "GB"], ["scotland", "GB"], ["wales", "GB"], ["northern ireland", "GB"], ["south korea", "KR"], ["korea", "KR"], ["north korea", "KP"], ["russia", "RU"], ["turkey", "TR"], ["czech republic", "CZ"], ["holland", "NL"], ["the netherlands", "NL"], ["vatican city", "VA"], ["ivory coast", "CI"], ["uae", "AE"], ["viet nam", "VN"], ["macedonia", "MK"], ["swaziland", "SZ"], ["burma", "MM"], ["taiwan", "TW"], ["hong kong", "HK"], ["palestine", "PS"], ["kosovo", "XK"], ["european union", "EU"]] as const) {
    names.set(n, code);
  }
  codes.add("EU");
  codes.add("UK");
  codes.add("XK");
  countryTable = { codes, names };
  return countryTable;
}

function currencies(): CodeTable {
  if (currencyTable) return currencyTable;
  const codes = new Set<string>(Intl.supportedValuesOf("currency"));
  const names = new Map<string, string>();
  for (const code of codes) {
    const name = currencyNames.of(code);
    if (name !== undefined) names.set(fold(name), code);
  }
  for (const c of (englishFaker.rawDefinitions.finance?.currency ?? []) as ReadonlyArray<{ name: string; code: string }>) {
    names.set(fold(c.name), c.code);
    codes.add(c.code);
  }
  for (const [n, code] of [["dollar", "USD"], ["us dollar", "USD"], ["dollars", "USD"], ["euro", "EUR"], ["euros", "EUR"], ["pound", "GBP"], ["pound sterling", "GBP"], ["yen", "JPY"], ["yuan", "CNY"], ["renminbi", "CNY"], ["rupee", "INR"], ["franc", "CHF"], ["bitcoin", "BTC"], ["ether", "ETH"]] as const) {
    names.set(n, code);
  }
  for (const crypto of ["BTC", "ETH", "XBT", "USDT", "USDC", "LTC", "XRP", "DOGE", "SOL", "ADA", "BNB"]) codes.add(crypto);
  currencyTable = { codes, names };
  return currencyTable;
}

function languages(): CodeTable {
  if (languageTable) return languageTable;
  const codes = new Set<string>();
  const names = new Map<string, string>();
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      const name = languageNames.of(code);
      if (name !== undefined && name !== code) {
        codes.add(code);
        names.set(fold(name), code);
      }
    }
  }
  for (const l of (englishFaker.rawDefinitions.location?.language as ReadonlyArray<{ name: string; alpha2: string; alpha3: string }> | undefined) ?? []) {
    codes.add(l.alpha2);
    codes.add(l.alpha3);
    for (const n of l.name.split("/")) names.set(fold(n), l.alpha2);
  }
  for (const [n, code] of [["mandarin", "zh"], ["chinese", "zh"], ["cantonese", "zh"], ["farsi", "fa"], ["persian", "fa"], ["filipino", "tl"], ["tagalog", "tl"], ["brazilian portuguese", "pt"], ["simplified chinese", "zh"], ["traditional chinese", "zh"], ["faeroese", "fo"], ["flemish", "nl"], ["castilian", "es"], ["moldavian", "ro"], ["valencian", "ca"], ["sinhalese", "si"], ["gaelic", "gd"]] as const) {
    names.set(n, code);
  }
  languageTable = { codes, names };
  return languageTable;
}

/** Whether a string is a real country: an ISO 3166 alpha-2 or alpha-3 code (any case) or an English name. */
export function isCountry(value: string): boolean {
  const t = countries();
  return t.codes.has(value.trim().toUpperCase()) || t.names.has(fold(value));
}

/** Whether a string is a real currency: an ISO 4217 code (or a major cryptocurrency) or an English currency name. */
export function isCurrency(value: string): boolean {
  const t = currencies();
  const v = value.trim();
  return t.codes.has(v.toUpperCase()) || t.names.has(fold(v)) || t.names.has(fold(v).replace(/s$/, ""));
}

/** Whether a string is a real language: ISO 639 code, a BCP 47 tag (`en-GB`, `pt_BR`, `zh-Hans`) or an English name. */
export function isLanguage(value: string): boolean {
  const t = languages();
  const v = value.trim();
  if (t.names.has(fold(v))) return true;
  if (v.includes("/") && v.split("/").every((part) => t.names.has(fold(part)))) return true;
  const tag = /^([a-z]{2,3})(?:[-_]([A-Za-z]{4}))?(?:[-_]([A-Za-z]{2}|\d{3}))?$/i.exec(v);
  if (!tag) return false;
  if (!t.codes.has((tag[1] ?? "").toLowerCase())) return false;
  return tag[3] === undefined || /^\d{3}$/.test(tag[3]) || countries().codes.has(tag[3].toUpperCase());
}

/** The English name of a country code, or undefined. */
export function countryName(code: string): string | undefined {
  const c = code.trim().toUpperCase();
  if (c.length === 2 && countries().codes.has(c)) return findCountry(c)?.name ?? regionNames.of(c);
  if (c.length === 3) return findCountry(c)?.name;
  return undefined;
}

/** The ISO alpha-2 code of a country given by code or English name, or undefined. */
export function countryCode(value: string): string | undefined {
  if (value.length > 60 || /\d/.test(value)) return undefined;
  const v = value.trim();
  const t = countries();
  if (v.length === 2 && t.codes.has(v.toUpperCase())) return v.toUpperCase();
  const row = findCountry(v);
  if (row) return row.alpha2;
  const byName = t.names.get(fold(v));
  return byName !== undefined && byName !== "" ? byName : undefined;
}

/** The English name of a currency code, or undefined. */
export function currencyName(code: string): string | undefined {
  return currencyNames.of(code.trim().toUpperCase());
}

/** The ISO 639-1 code of a language given by code, tag or English name, or undefined. */
export function languageCode(value: string): string | undefined {
  const v = value.trim();
  const head = /^([a-z]{2})(?:[-_].*)?$/i.exec(v)?.[1]?.toLowerCase();
  if (head !== undefined && languages().codes.has(head)) return head;
  return languages().names.get(fold(v));
}

/** Approximate value of one unit of a currency in US dollars (for plausible rates); undefined when unknown. */
export function usdPerUnit(code: string): number | undefined {
  return USD_PER_UNIT[code.trim().toUpperCase()];
}

const USD_PER_UNIT: Record<string, number> = {
  USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0066, CHF: 1.12, CAD: 0.73, AUD: 0.66, NZD: 0.6, CNY: 0.138, INR: 0.012, BRL: 0.18, MXN: 0.055,
  ARS: 0.0011, CLP: 0.0011, COP: 0.00025, PEN: 0.27, SEK: 0.095, NOK: 0.093, DKK: 0.145, ISK: 0.0072, PLN: 0.25, CZK: 0.043, HUF: 0.0027,
  RON: 0.22, UAH: 0.024, TRY: 0.031, KRW: 0.00073, SGD: 0.74, THB: 0.028, VND: 0.00004, IDR: 0.000063, MYR: 0.21, PHP: 0.018, AED: 0.272,
  ILS: 0.27, SAR: 0.267, EGP: 0.021, MAD: 0.1, NGN: 0.00067, GHS: 0.067, KES: 0.0077, ZAR: 0.054, HKD: 0.128, TWD: 0.031, RUB: 0.011,
  BTC: 65000, ETH: 3200,
};

/** The known city nearest to a point, within `maxKm` (undefined when none is that close). */
export function cityNear(lat: number, lon: number, maxKm: number): City | undefined {
  let best: City | undefined;
  let bestKm = maxKm;
  for (const c of CITIES) {
    const km = greatCircleKm(lat, lon, c.lat, c.lon);
    if (km < bestKm) {
      best = c;
      bestKm = km;
    }
  }
  return best;
}
