/**
 * Fixed-date public holidays of the world's countries (those of `world-data.ts`), for answers about holidays
 * that must be the asked country's own: its English and local names by month and day. Movable feasts (Easter,
 * lunar new year) are left out: their dates change every year.
 */

/** One fixed-date holiday of a country. */
export interface FixedHoliday {
  /** `MM-DD`. */
  day: string;
  name: string;
  localName: string;
}

const ROWS = `
US|01-01|New Year's Day|New Year's Day
US|06-19|Juneteenth|Juneteenth
US|07-04|Independence Day|Independence Day
US|11-11|Veterans Day|Veterans Day
US|12-25|Christmas Day|Christmas Day
CA|01-01|New Year's Day|New Year's Day
CA|07-01|Canada Day|Canada Day
CA|09-30|National Day for Truth and Reconciliation|National Day for Truth and Reconciliation
CA|11-11|Remembrance Day|Remembrance Day
CA|12-25|Christmas Day|Christmas Day
MX|01-01|New Year's Day|Año Nuevo
MX|05-01|Labour Day|Día del Trabajo
MX|09-16|Independence Day|Día de la Independencia
MX|12-25|Christmas Day|Navidad
BR|01-01|New Year's Day|Confraternização Universal
BR|04-21|Tiradentes|Tiradentes
BR|05-01|Labour Day|Dia do Trabalhador
BR|09-07|Independence Day|Dia da Independência
BR|10-12|Our Lady of Aparecida|Nossa Senhora Aparecida
BR|11-02|All Souls' Day|Finados
BR|11-15|Republic Proclamation Day|Proclamação da República
BR|12-25|Christmas Day|Natal
AR|01-01|New Year's Day|Año Nuevo
AR|03-24|Day of Remembrance for Truth and Justice|Día Nacional de la Memoria por la Verdad y la Justicia
AR|04-02|Malvinas Day|Día del Veterano y de los Caídos en la Guerra de Malvinas
AR|05-01|Labour Day|Día del Trabajador
AR|05-25|May Revolution|Día de la Revolución de Mayo
AR|07-09|Independence Day|Día de la Independencia
AR|12-25|Christmas Day|Navidad
CL|01-01|New Year's Day|Año Nuevo
CL|05-01|Labour Day|Día del Trabajo
CL|05-21|Navy Day|Día de las Glorias Navales
CL|09-18|Independence Day|Fiestas Patrias
CL|09-19|Army Day|Día de las Glorias del Ejército
CL|12-25|Christmas Day|Navidad
CO|01-01|New Year's Day|Año Nuevo
CO|05-01|Labour Day|Día del Trabajo
CO|07-20|Independence Day|Día de la Independencia
CO|08-07|Battle of Boyacá|Batalla de Boyacá
CO|12-08|Immaculate Conception|Inmaculada Concepción
CO|12-25|Christmas Day|Navidad
PE|01-01|New Year's Day|Año Nuevo
PE|05-01|Labour Day|Día del Trabajo
PE|06-29|Saint Peter and Saint Paul|San Pedro y San Pablo
PE|07-28|Independence Day|Fiestas Patrias
PE|08-30|Santa Rosa de Lima|Santa Rosa de Lima
PE|12-25|Christmas Day|Navidad
GB|01-01|New Year's Day|New Year's Day
GB|12-25|Christmas Day|Christmas Day
GB|12-26|Boxing Day|Boxing Day
IE|01-01|New Year's Day|Lá Caille
IE|03-17|Saint Patrick's Day|Lá Fhéile Pádraig
IE|12-25|Christmas Day|Lá Nollag
IE|12-26|Saint Stephen's Day|Lá Fhéile Stiofáin
FR|01-01|New Year's Day|Jour de l'an
FR|05-01|Labour Day|Fête du Travail
FR|05-08|Victory in Europe Day|Victoire 1945
FR|07-14|Bastille Day|Fête nationale
FR|08-15|Assumption Day|Assomption
FR|11-01|All Saints' Day|Toussaint
FR|11-11|Armistice Day|Armistice 1918
FR|12-25|Christmas Day|Noël
DE|01-01|New Year's Day|Neujahr
DE|05-01|Labour Day|Tag der Arbeit
DE|10-03|German Unity Day|Tag der Deutschen Einheit
DE|12-25|Christmas Day|Erster Weihnachtstag
DE|12-26|St. Stephen's Day|Zweiter Weihnachtstag
NL|01-01|New Year's Day|Nieuwjaarsdag
NL|04-27|King's Day|Koningsdag
NL|05-05|Liberation Day|Bevrijdingsdag
NL|12-25|Christmas Day|Eerste Kerstdag
NL|12-26|St. Stephen's Day|Tweede Kerstdag
BE|01-01|New Year's Day|Nieuwjaar
BE|05-01|Labour Day|Dag van de Arbeid
BE|07-21|Belgian National Day|Nationale feestdag
BE|08-15|Assumption Day|Onze Lieve Vrouw Hemelvaart
BE|11-01|All Saints' Day|Allerheiligen
BE|11-11|Armistice Day|Wapenstilstand
BE|12-25|Christmas Day|Kerstmis
CH|01-01|New Year's Day|Neujahr
CH|08-01|Swiss National Day|Bundesfeier
CH|12-25|Christmas Day|Weihnachten
AT|01-01|New Year's Day|Neujahr
AT|01-06|Epiphany|Heilige Drei Könige
AT|05-01|National Holiday|Staatsfeiertag
AT|08-15|Assumption Day|Maria Himmelfahrt
AT|10-26|National Day|Nationalfeiertag
AT|11-01|All Saints' Day|Allerheiligen
AT|12-08|Immaculate Conception|Mariä Empfängnis
AT|12-25|Christmas Day|Christtag
AT|12-26|St. Stephen's Day|Stefanitag
ES|01-01|New Year's Day|Año Nuevo
ES|01-06|Epiphany|Día de Reyes
ES|05-01|Labour Day|Fiesta del Trabajo
ES|08-15|Assumption Day|Asunción de la Virgen
ES|10-12|National Day|Fiesta Nacional de España
ES|11-01|All Saints' Day|Todos los Santos
ES|12-06|Constitution Day|Día de la Constitución
ES|12-08|Immaculate Conception|Inmaculada Concepción
ES|12-25|Christmas Day|Navidad
PT|01-01|New Year's Day|Ano Novo
PT|04-25|Freedom Day|Dia da Liberdade
PT|05-01|Labour Day|Dia do Trabalhador
PT|06-10|Portugal Day|Dia de Portugal
PT|08-15|Assumption Day|Assunção de Nossa Senhora
PT|10-05|Implantation of the Republic|Implantação da República
PT|11-01|All Saints' Day|Dia de Todos-os-Santos
PT|12-01|Restoration of Independence|Restauração da Independência
PT|12-08|Immaculate Conception|Imaculada Conceição
PT|12-25|Christmas Day|Natal
IT|01-01|New Year's Day|Capodanno
IT|01-06|Epiphany|Epifania
IT|04-25|Liberation Day|Festa della Liberazione
IT|05-01|Labour Day|Festa del Lavoro
IT|06-02|Republic Day|Festa della Repubblica
IT|08-15|Assumption Day|Ferragosto
IT|11-01|All Saints' Day|Ognissanti
IT|12-08|Immaculate Conception|Immacolata Concezione
IT|12-25|Christmas Day|Natale
IT|12-26|St. Stephen's Day|Santo Stefano
GR|01-01|New Year's Day|Πρωτοχρονιά
GR|01-06|Epiphany|Θεοφάνεια
GR|03-25|Independence Day|Ευαγγελισμός της Θεοτόκου
GR|05-01|Labour Day|Εργατική Πρωτομαγιά
GR|08-15|Assumption Day|Κοίμηση της Θεοτόκου
GR|10-28|Ohi Day|Επέτειος του Όχι
GR|12-25|Christmas Day|Χριστούγεννα
SE|01-01|New Year's Day|Nyårsdagen
SE|01-06|Epiphany|Trettondedag jul
SE|05-01|International Workers' Day|Första maj
SE|06-06|National Day of Sweden|Sveriges nationaldag
SE|12-25|Christmas Day|Juldagen
SE|12-26|St. Stephen's Day|Annandag jul
NO|01-01|New Year's Day|Første nyttårsdag
NO|05-01|Labour Day|Arbeidernes dag
NO|05-17|Constitution Day|Grunnlovsdag
NO|12-25|Christmas Day|Første juledag
NO|12-26|St. Stephen's Day|Andre juledag
DK|01-01|New Year's Day|Nytårsdag
DK|06-05|Constitution Day|Grundlovsdag
DK|12-25|Christmas Day|Juledag
DK|12-26|St. Stephen's Day|Anden juledag
FI|01-01|New Year's Day|Uudenvuodenpäivä
FI|01-06|Epiphany|Loppiainen
FI|05-01|May Day|Vappu
FI|12-06|Independence Day|Itsenäisyyspäivä
FI|12-25|Christmas Day|Joulupäivä
FI|12-26|St. Stephen's Day|Tapaninpäivä
IS|01-01|New Year's Day|Nýársdagur
IS|05-01|Labour Day|Verkalýðsdagurinn
IS|06-17|National Day|Þjóðhátíðardagurinn
IS|12-25|Christmas Day|Jóladagur
IS|12-26|St. Stephen's Day|Annar í jólum
PL|01-01|New Year's Day|Nowy Rok
PL|01-06|Epiphany|Święto Trzech Króli
PL|05-01|May Day|Święto Pracy
PL|05-03|Constitution Day|Święto Narodowe Trzeciego Maja
PL|08-15|Assumption Day|Wniebowzięcie Najświętszej Maryi Panny
PL|11-01|All Saints' Day|Wszystkich Świętych
PL|11-11|Independence Day|Narodowe Święto Niepodległości
PL|12-25|Christmas Day|Boże Narodzenie
CZ|01-01|Restoration Day of the Independent Czech State|Den obnovy samostatného českého státu
CZ|05-01|Labour Day|Svátek práce
CZ|05-08|Liberation Day|Den vítězství
CZ|07-05|Saints Cyril and Methodius Day|Den slovanských věrozvěstů Cyrila a Metoděje
CZ|07-06|Jan Hus Day|Den upálení mistra Jana Husa
CZ|09-28|St. Wenceslas Day|Den české státnosti
CZ|10-28|Independent Czechoslovak State Day|Den vzniku samostatného československého státu
CZ|11-17|Struggle for Freedom and Democracy Day|Den boje za svobodu a demokracii
CZ|12-25|Christmas Day|1. svátek vánoční
HU|01-01|New Year's Day|Újév
HU|03-15|1848 Revolution Memorial Day|Nemzeti ünnep
HU|05-01|Labour Day|A munka ünnepe
HU|08-20|State Foundation Day|Az államalapítás ünnepe
HU|10-23|1956 Revolution Memorial Day|Nemzeti ünnep
HU|11-01|All Saints' Day|Mindenszentek
HU|12-25|Christmas Day|Karácsony
RO|01-01|New Year's Day|Anul Nou
RO|01-24|Union Day|Ziua Unirii Principatelor Române
RO|05-01|Labour Day|Ziua Muncii
RO|06-01|Children's Day|Ziua Copilului
RO|08-15|Assumption Day|Adormirea Maicii Domnului
RO|11-30|St. Andrew's Day|Sfântul Andrei
RO|12-01|National Day|Ziua Națională
RO|12-25|Christmas Day|Crăciunul
UA|01-01|New Year's Day|Новий рік
UA|03-08|International Women's Day|Міжнародний жіночий день
UA|05-01|International Workers' Day|День праці
UA|06-28|Constitution Day|День Конституції
UA|08-24|Independence Day|День незалежності
UA|12-25|Christmas Day|Різдво Христове
TR|01-01|New Year's Day|Yılbaşı
TR|04-23|National Sovereignty and Children's Day|Ulusal Egemenlik ve Çocuk Bayramı
TR|05-01|Labour and Solidarity Day|Emek ve Dayanışma Günü
TR|05-19|Commemoration of Atatürk, Youth and Sports Day|Atatürk'ü Anma, Gençlik ve Spor Bayramı
TR|07-15|Democracy and National Unity Day|Demokrasi ve Millî Birlik Günü
TR|08-30|Victory Day|Zafer Bayramı
TR|10-29|Republic Day|Cumhuriyet Bayramı
JP|01-01|New Year's Day|元日
JP|02-11|Foundation Day|建国記念の日
JP|02-23|The Emperor's Birthday|天皇誕生日
JP|04-29|Shōwa Day|昭和の日
JP|05-03|Constitution Memorial Day|憲法記念日
JP|05-04|Greenery Day|みどりの日
JP|05-05|Children's Day|こどもの日
JP|08-11|Mountain Day|山の日
JP|11-03|Culture Day|文化の日
JP|11-23|Labour Thanksgiving Day|勤労感謝の日
CN|01-01|New Year's Day|元旦
CN|05-01|Labour Day|劳动节
CN|10-01|National Day|国庆节
KR|01-01|New Year's Day|신정
KR|03-01|Independence Movement Day|삼일절
KR|05-05|Children's Day|어린이날
KR|06-06|Memorial Day|현충일
KR|08-15|Liberation Day|광복절
KR|10-03|National Foundation Day|개천절
KR|10-09|Hangul Day|한글날
KR|12-25|Christmas Day|기독탄신일
IN|01-26|Republic Day|गणतंत्र दिवस
IN|08-15|Independence Day|स्वतंत्रता दिवस
IN|10-02|Gandhi Jayanti|गांधी जयंती
IN|12-25|Christmas Day|क्रिसमस
SG|01-01|New Year's Day|New Year's Day
SG|05-01|Labour Day|Labour Day
SG|08-09|National Day|National Day
SG|12-25|Christmas Day|Christmas Day
TH|01-01|New Year's Day|วันขึ้นปีใหม่
TH|04-06|Chakri Memorial Day|วันจักรี
TH|04-13|Songkran Festival|วันสงกรานต์
TH|05-01|Labour Day|วันแรงงานแห่งชาติ
TH|07-28|King's Birthday|วันเฉลิมพระชนมพรรษา
TH|08-12|Mother's Day|วันแม่แห่งชาติ
TH|12-05|Father's Day|วันพ่อแห่งชาติ
TH|12-10|Constitution Day|วันรัฐธรรมนูญ
VN|01-01|New Year's Day|Tết Dương lịch
VN|04-30|Reunification Day|Ngày Giải phóng miền Nam
VN|05-01|Labour Day|Ngày Quốc tế Lao động
VN|09-02|National Day|Quốc khánh
ID|01-01|New Year's Day|Tahun Baru Masehi
ID|05-01|Labour Day|Hari Buruh Internasional
ID|06-01|Pancasila Day|Hari Lahir Pancasila
ID|08-17|Independence Day|Hari Ulang Tahun Kemerdekaan Republik Indonesia
ID|12-25|Christmas Day|Hari Raya Natal
MY|01-01|New Year's Day|Tahun Baru
MY|05-01|Labour Day|Hari Pekerja
MY|08-31|National Day|Hari Kebangsaan
MY|09-16|Malaysia Day|Hari Malaysia
MY|12-25|Christmas Day|Hari Krismas
PH|01-01|New Year's Day|Araw ng Bagong Taon
PH|04-09|Day of Valor|Araw ng Kagitingan
PH|05-01|Labour Day|Araw ng Paggawa
PH|06-12|Independence Day|Araw ng Kalayaan
PH|11-30|Bonifacio Day|Araw ni Bonifacio
PH|12-25|Christmas Day|Araw ng Pasko
PH|12-30|Rizal Day|Araw ni Rizal
AE|01-01|New Year's Day|رأس السنة الميلادية
AE|12-01|Commemoration Day|يوم الشهيد
AE|12-02|National Day|اليوم الوطني
IL|05-14|Independence Day|יום העצמאות
SA|02-22|Founding Day|يوم التأسيس
SA|09-23|National Day|اليوم الوطني
EG|01-07|Coptic Christmas|عيد الميلاد المجيد
EG|01-25|Revolution Day|عيد الثورة
EG|04-25|Sinai Liberation Day|عيد تحرير سيناء
EG|05-01|Labour Day|عيد العمال
EG|07-23|Revolution Day|عيد ثورة 23 يوليو
EG|10-06|Armed Forces Day|عيد القوات المسلحة
MA|01-01|New Year's Day|رأس السنة الميلادية
MA|01-11|Proclamation of Independence|ذكرى تقديم وثيقة الاستقلال
MA|05-01|Labour Day|عيد الشغل
MA|07-30|Throne Day|عيد العرش
MA|08-14|Oued Ed-Dahab Day|ذكرى استرجاع إقليم وادي الذهب
MA|11-06|Green March|ذكرى المسيرة الخضراء
MA|11-18|Independence Day|عيد الاستقلال
NG|01-01|New Year's Day|New Year's Day
NG|05-01|Workers' Day|Workers' Day
NG|06-12|Democracy Day|Democracy Day
NG|10-01|Independence Day|Independence Day
NG|12-25|Christmas Day|Christmas Day
NG|12-26|Boxing Day|Boxing Day
GH|01-01|New Year's Day|New Year's Day
GH|01-07|Constitution Day|Constitution Day
GH|03-06|Independence Day|Independence Day
GH|05-01|May Day|May Day
GH|12-25|Christmas Day|Christmas Day
GH|12-26|Boxing Day|Boxing Day
KE|01-01|New Year's Day|New Year's Day
KE|05-01|Labour Day|Labour Day
KE|06-01|Madaraka Day|Madaraka Day
KE|10-20|Mashujaa Day|Mashujaa Day
KE|12-12|Jamhuri Day|Jamhuri Day
KE|12-25|Christmas Day|Christmas Day
KE|12-26|Boxing Day|Boxing Day
ZA|01-01|New Year's Day|New Year's Day
ZA|03-21|Human Rights Day|Human Rights Day
ZA|04-27|Freedom Day|Freedom Day
ZA|05-01|Workers' Day|Workers' Day
ZA|06-16|Youth Day|Youth Day
ZA|08-09|National Women's Day|National Women's Day
ZA|09-24|Heritage Day|Heritage Day
ZA|12-16|Day of Reconciliation|Day of Reconciliation
ZA|12-25|Christmas Day|Christmas Day
ZA|12-26|Day of Goodwill|Day of Goodwill
AU|01-01|New Year's Day|New Year's Day
AU|01-26|Australia Day|Australia Day
AU|04-25|Anzac Day|Anzac Day
AU|12-25|Christmas Day|Christmas Day
AU|12-26|Boxing Day|Boxing Day
NZ|01-01|New Year's Day|New Year's Day
NZ|01-02|Day after New Year's Day|Day after New Year's Day
NZ|02-06|Waitangi Day|Waitangi Day
NZ|04-25|Anzac Day|Anzac Day
NZ|12-25|Christmas Day|Christmas Day
NZ|12-26|Boxing Day|Boxing Day
`;

const BY_COUNTRY = new Map<string, FixedHoliday[]>();
for (const line of ROWS.split("\n")) {
  const [code, day, name, localName] = line.split("|");
  if (code === undefined || day === undefined || name === undefined || localName === undefined) continue;
  const list = BY_COUNTRY.get(code) ?? [];
  list.push({ day, name, localName });
  BY_COUNTRY.set(code, list);
}

/** A country's fixed-date public holidays in calendar order (empty for a country the world does not know). */
export function fixedHolidays(alpha2: string): readonly FixedHoliday[] {
  return BY_COUNTRY.get(alpha2.toUpperCase()) ?? [];
}
