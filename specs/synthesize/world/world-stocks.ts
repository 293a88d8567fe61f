/**
 * Companies whose shares are well known, by ticker: what an answer about `AAPL` or `SAP` says of them (their
 * name, where they are listed and based, in what currency they trade, their sector and industry, their site and
 * head office).
 * A synthesized or example company answering for one of these tickers is that company, not a made-up one.
 */

/** A listed company as the world knows it. */
export interface Stock {
  symbol: string;
  name: string;
  /** Exchange code, as in `world-exchanges.ts` (`NASDAQ`, `XETRA`). */
  exchange: string;
  /** ISO 3166-1 alpha-2 code of where the company is based. */
  countryCode: string;
  currency: string;
  sector: string;
  industry: string;
  website: string;
  /** Where its head office is (`Cupertino, California`). */
  headquarters: string;
}

const ROWS = `
AAPL|Apple Inc.|NASDAQ|US|USD|Technology|Consumer Electronics|https://www.apple.com|Cupertino, California
MSFT|Microsoft Corporation|NASDAQ|US|USD|Technology|Software - Infrastructure|https://www.microsoft.com|Redmond, Washington
GOOGL|Alphabet Inc.|NASDAQ|US|USD|Communication Services|Internet Content & Information|https://abc.xyz|Mountain View, California
AMZN|Amazon.com, Inc.|NASDAQ|US|USD|Consumer Cyclical|Internet Retail|https://www.amazon.com|Seattle, Washington
META|Meta Platforms, Inc.|NASDAQ|US|USD|Communication Services|Internet Content & Information|https://www.meta.com|Menlo Park, California
TSLA|Tesla, Inc.|NASDAQ|US|USD|Consumer Cyclical|Auto Manufacturers|https://www.tesla.com|Austin, Texas
NVDA|NVIDIA Corporation|NASDAQ|US|USD|Technology|Semiconductors|https://www.nvidia.com|Santa Clara, California
NFLX|Netflix, Inc.|NASDAQ|US|USD|Communication Services|Entertainment|https://www.netflix.com|Los Gatos, California
INTC|Intel Corporation|NASDAQ|US|USD|Technology|Semiconductors|https://www.intel.com|Santa Clara, California
AMD|Advanced Micro Devices, Inc.|NASDAQ|US|USD|Technology|Semiconductors|https://www.amd.com|Santa Clara, California
ADBE|Adobe Inc.|NASDAQ|US|USD|Technology|Software - Application|https://www.adobe.com|San Jose, California
CSCO|Cisco Systems, Inc.|NASDAQ|US|USD|Technology|Communication Equipment|https://www.cisco.com|San Jose, California
PEP|PepsiCo, Inc.|NASDAQ|US|USD|Consumer Defensive|Beverages - Non-Alcoholic|https://www.pepsico.com|Purchase, New York
COST|Costco Wholesale Corporation|NASDAQ|US|USD|Consumer Defensive|Discount Stores|https://www.costco.com|Issaquah, Washington
ORCL|Oracle Corporation|NYSE|US|USD|Technology|Software - Infrastructure|https://www.oracle.com|Austin, Texas
IBM|International Business Machines Corporation|NYSE|US|USD|Technology|Information Technology Services|https://www.ibm.com|Armonk, New York
CRM|Salesforce, Inc.|NYSE|US|USD|Technology|Software - Application|https://www.salesforce.com|San Francisco, California
UBER|Uber Technologies, Inc.|NYSE|US|USD|Technology|Software - Application|https://www.uber.com|San Francisco, California
JPM|JPMorgan Chase & Co.|NYSE|US|USD|Financial Services|Banks - Diversified|https://www.jpmorganchase.com|New York, New York
BAC|Bank of America Corporation|NYSE|US|USD|Financial Services|Banks - Diversified|https://www.bankofamerica.com|Charlotte, North Carolina
V|Visa Inc.|NYSE|US|USD|Financial Services|Credit Services|https://www.visa.com|San Francisco, California
MA|Mastercard Incorporated|NYSE|US|USD|Financial Services|Credit Services|https://www.mastercard.com|Purchase, New York
WMT|Walmart Inc.|NYSE|US|USD|Consumer Defensive|Discount Stores|https://www.walmart.com|Bentonville, Arkansas
KO|The Coca-Cola Company|NYSE|US|USD|Consumer Defensive|Beverages - Non-Alcoholic|https://www.coca-colacompany.com|Atlanta, Georgia
DIS|The Walt Disney Company|NYSE|US|USD|Communication Services|Entertainment|https://thewaltdisneycompany.com|Burbank, California
NKE|NIKE, Inc.|NYSE|US|USD|Consumer Cyclical|Footwear & Accessories|https://www.nike.com|Beaverton, Oregon
MCD|McDonald's Corporation|NYSE|US|USD|Consumer Cyclical|Restaurants|https://www.mcdonalds.com|Chicago, Illinois
XOM|Exxon Mobil Corporation|NYSE|US|USD|Energy|Oil & Gas Integrated|https://corporate.exxonmobil.com|Spring, Texas
CVX|Chevron Corporation|NYSE|US|USD|Energy|Oil & Gas Integrated|https://www.chevron.com|Houston, Texas
JNJ|Johnson & Johnson|NYSE|US|USD|Healthcare|Drug Manufacturers - General|https://www.jnj.com|New Brunswick, New Jersey
PFE|Pfizer Inc.|NYSE|US|USD|Healthcare|Drug Manufacturers - General|https://www.pfizer.com|New York, New York
BA|The Boeing Company|NYSE|US|USD|Industrials|Aerospace & Defense|https://www.boeing.com|Arlington, Virginia
TSM|Taiwan Semiconductor Manufacturing Company Limited|NYSE|TW|USD|Technology|Semiconductors|https://www.tsmc.com|Hsinchu, Taiwan
BABA|Alibaba Group Holding Limited|NYSE|CN|USD|Consumer Cyclical|Internet Retail|https://www.alibabagroup.com|Hangzhou, China
SHOP|Shopify Inc.|NYSE|CA|USD|Technology|Software - Application|https://www.shopify.com|Ottawa, Canada
RY|Royal Bank of Canada|TSX|CA|CAD|Financial Services|Banks - Diversified|https://www.rbc.com|Toronto, Canada
SAP|SAP SE|XETRA|DE|EUR|Technology|Software - Application|https://www.sap.com|Walldorf, Germany
SIE|Siemens AG|XETRA|DE|EUR|Industrials|Specialty Industrial Machinery|https://www.siemens.com|Munich, Germany
VOW3|Volkswagen AG|XETRA|DE|EUR|Consumer Cyclical|Auto Manufacturers|https://www.volkswagen-group.com|Wolfsburg, Germany
ASML|ASML Holding N.V.|AMS|NL|EUR|Technology|Semiconductor Equipment & Materials|https://www.asml.com|Veldhoven, Netherlands
MC|LVMH Moët Hennessy Louis Vuitton SE|EPA|FR|EUR|Consumer Cyclical|Luxury Goods|https://www.lvmh.com|Paris, France
NESN|Nestlé S.A.|SIX|CH|CHF|Consumer Defensive|Packaged Foods|https://www.nestle.com|Vevey, Switzerland
NOVN|Novartis AG|SIX|CH|CHF|Healthcare|Drug Manufacturers - General|https://www.novartis.com|Basel, Switzerland
SHEL|Shell plc|LSE|GB|GBP|Energy|Oil & Gas Integrated|https://www.shell.com|London, United Kingdom
HSBA|HSBC Holdings plc|LSE|GB|GBP|Financial Services|Banks - Diversified|https://www.hsbc.com|London, United Kingdom
AZN|AstraZeneca PLC|LSE|GB|GBP|Healthcare|Drug Manufacturers - General|https://www.astrazeneca.com|Cambridge, United Kingdom
7203|Toyota Motor Corporation|TSE|JP|JPY|Consumer Cyclical|Auto Manufacturers|https://global.toyota|Toyota City, Japan
6758|Sony Group Corporation|TSE|JP|JPY|Technology|Consumer Electronics|https://www.sony.com|Tokyo, Japan
0700|Tencent Holdings Limited|HKEX|CN|HKD|Communication Services|Internet Content & Information|https://www.tencent.com|Shenzhen, China
005930|Samsung Electronics Co., Ltd.|KRX|KR|KRW|Technology|Consumer Electronics|https://www.samsung.com|Suwon, South Korea
`;

/** The companies, by ticker. */
export const STOCKS: readonly Stock[] = ROWS.trim()
  .split("\n")
  .map((line) => {
    const [symbol = "", name = "", exchange = "", countryCode = "", currency = "", sector = "", industry = "", website = "", headquarters = ""] = line.split("|");
    return { symbol, name, exchange, countryCode, currency, sector, industry, website, headquarters };
  });

const bySymbol = new Map(STOCKS.map((s) => [s.symbol, s]));

/** A company by its ticker (case-insensitive; `BRK.B`-style suffixes are kept). */
export function findStock(symbol: string): Stock | undefined {
  return symbol.length > 12 ? undefined : bySymbol.get(symbol.trim().toUpperCase());
}

/** The word a company is called by (`Apple` of Apple Inc., `Walt` of The Walt Disney Company), lower case. */
function headWord(name: string): string {
  const words = name.toLowerCase().split(/[\s,.]+/).filter((w) => w !== "" && w !== "the");
  return words[0] ?? "";
}

/** A company whose name a text begins with (`Apple Robotics` -> Apple Inc.), for a search by name. */
export function stockNamed(text: string): Stock | undefined {
  const t = text.trim().toLowerCase();
  const head = headWord(text);
  if (head.length < 3) return undefined;
  return STOCKS.find((s) => s.name.toLowerCase().startsWith(t) || headWord(s.name) === head);
}
