import { assertSameName, inputOf, inputWithout, sameAll, UncaughtPyError, type ApiBankApiImpl, type ApiBankResult, sameOutcome } from "./apibank-api.js";
import { apiBankCalculate } from "./calculator.js";
import { asStr, compareDateTime, contentSatisfied, keyError, PyException, pyEquals, pyStrip, pyTypeName, strftime, strptime, type PyDateTime } from "./py.js";

/*
 * API-Bank's level-3 APIs (`lv3_apis/`) as their Python implementation behaves, with the data they hold
 * (flights, hotels, meetings, salaries and taxes, accounts, posts and likes, movies, organizations, places and
 * their weather). Their instances keep state between calls: FlightSearch and HotelAvailability turn the dates
 * of the entries they return into text, so asking again for an entry already returned raises Python's
 * AttributeError, as it does there.
 */

type Json = Record<string, unknown>;

const dt = (year: number, month: number, day: number, hour = 0): PyDateTime => ({ year, month, day, hour, minute: 0, second: 0 });

const FLIGHTS = [
  ["New York", "San Francisco", 1],
  ["Los Angeles", "San Francisco", 2],
  ["London", "San Francisco", 3],
  ["New York", "London", 4],
  ["New York", "Los Angeles", 5],
] as const;

const HOTELS = [1, 2, 3, 4, 5].map((d) => ({ id: `hotel_${d}`, destination: "San Francisco", in: dt(2022, 1, d), out: dt(2022, 1, d + 1) }));

const ACCOUNTS: Array<[string, string, Json]> = [
  ["John", "123456", { email: "john@example.com", phone: "1234567890" }],
  ["Mary", "abcdef", { email: "mary@example.com", phone: "0987654321" }],
  ["Peter", "qwerty", { email: "peter@example.com", phone: "1231231234" }],
  ["Tom", "asdfgh", { email: "tom@example.com", phone: "4564564567" }],
  ["Jerry", "zxcvbn", { email: "jerry@example.com", phone: "7897897890" }],
];

const SALARY: Json = { "Financial Analyst": 100000, "Software Engineer": 120000, "Data Scientist": 150000, "Product Manager": 130000, Doctor: 200000 };
const PLACES: Array<[string, number, number]> = [
  ["New York City", 40.7128, 74.006],
  ["San Francisco", 37.7749, 122.4194],
  ["London", 51.5074, 0.1278],
  ["Paris", 48.8566, 2.3522],
  ["Tokyo", 35.6762, 139.6503],
];
const WEATHER: Json[] = [
  { temperature: 10, humidity: 0.5, description: "Clear" },
  { temperature: 20, humidity: 0.8, description: "Cloudy" },
  { temperature: 5, humidity: 0.9, description: "Rainy" },
  { temperature: 15, humidity: 0.7, description: "Sunny" },
  { temperature: 25, humidity: 0.6, description: "Rainy" },
];
const RESTAURANTS = [
  { coordinates: [40.7128, 74.006], name: "Restaurant A" },
  { coordinates: [37.7749, 122.4194], name: "Restaurant B" },
  { coordinates: [40.7128, 74.006], name: "Restaurant C" },
  { coordinates: [37.7749, 122.4194], name: "Restaurant D" },
];
const MOVIE_GENRES: Record<string, string[]> = {
  Action: ["The Dark Knight", "The Matrix", "The Lord of the Rings"],
  Comedy: ["The Hangover", "Knives Out", "Deadpool"],
  Drama: ["The Shawshank Redemption", "Forrest Gump", "Joker"],
  Romance: ["Titanic", "La La Land", "The Notebook"],
  Thriller: ["Inception", "Parasite", "Get Out"],
};
const ORGANIZATIONS: Record<string, string[]> = { Alibaba: ["John", "Mary", "Peter"], Tencent: ["Tom", "Jerry"], Baidu: ["Jack", "Rose"], ByteDance: ["Bob", "Alice"], JD: ["Mike", "Jane"] };
const TRAVEL: Record<string, string> = {
  John: "Traveling",
  Mary: "Working from home",
  Peter: "Working from office",
  Tom: "Traveling",
  Jerry: "Working from home",
  Jack: "Working from office",
  Rose: "Working from office",
  Bob: "Traveling",
  Alice: "Working from home",
  Mike: "Working from office",
  Jane: "Working from office",
};
const POSTS: Record<string, number[]> = { "1": [1, 2, 3], "2": [4, 5, 6], "3": [7, 8, 9], "4": [10, 11, 12], "5": [13, 14, 15] };
const WATCHED: Record<string, string[]> = {
  John: ["The Matrix", "The Lord of the Rings", "The Dark Knight"],
  Mary: ["The Lord of the Rings", "The Dark Knight", "The Matrix"],
  Peter: ["The Matrix", "The Lord of the Rings", "The Dark Knight"],
  Tom: ["The Lord of the Rings", "The Dark Knight", "The Matrix"],
  Jerry: ["The Matrix", "The Lord of the Rings", "The Dark Knight"],
};
const PREFERENCES: Record<string, string[]> = {
  John: ["Action", "Comedy", "Drama"],
  Mary: ["Comedy", "Drama", "Romance"],
  Peter: ["Action", "Drama", "Thriller"],
  Tom: ["Action", "Comedy", "Drama"],
  Jerry: ["Comedy", "Drama", "Romance"],
};

function meetings(names: string[], list: Array<[number, string, number, string]>): Json[] {
  return list.map(([id, name, day, room]) => ({ meeting_id: id, meeting_name: name, meeting_time: strftime(dt(2021, 1, day, 10), "%Y-%m-%d %H:%M:%S"), meeting_location: room, meeting_attendees: names }));
}
const TEAM = meetings(["John", "Mary", "Peter"], [
  [1, "Meeting with the client", 1, "Room 1"],
  [2, "Meeting about the new project", 2, "Room 2"],
]);
const PAIR = meetings(["Tom", "Jerry"], [[1, "Meeting", 1, "Room 1"]]);
const MEETINGS: Record<string, Json[]> = { John: TEAM, Mary: TEAM, Peter: TEAM, Tom: PAIR, Jerry: PAIR };

/** `d[key]` of a Python dict: KeyError with the key's repr when missing. */
function lookup<T>(d: Record<string, T>, key: unknown): T {
  if (typeof key !== "string" && typeof key !== "number") throw new PyException(`unhashable type: '${pyTypeName(key)}'`, "TypeError");
  const k = String(key);
  if (!Object.prototype.hasOwnProperty.call(d, k)) throw keyError(key);
  return d[k] as T;
}

const checked = (r: ApiBankResult, g: ApiBankResult): boolean => (assertSameName(r, g), sameAll(r, g));
const S = (name: string): { name: string; type: string } => ({ name, type: "str" });

/** The level-3 APIs (22 with Calculator and ToolSearcher, which live in `tool-searcher.ts` and here). */
export const LV3_APIS: ApiBankApiImpl[] = [
  {
    name: "AccountInfo",
    set: "lv3_apis",
    params: [S("username"), S("password")],
    call(a) {
      const hit = ACCOUNTS.find(([u, p]) => pyEquals(u, a["username"]) && pyEquals(p, a["password"]));
      if (!hit) throw new PyException("User not found.");
      return hit[2];
    },
    check: checked,
  },
  {
    name: "PersonalInfoUpdate",
    set: "lv3_apis",
    params: [S("username"), S("password"), S("address")],
    call(a, env) {
      const inst = env.instances.get("PersonalInfoUpdate");
      const hit = ACCOUNTS.find(([u, p]) => pyEquals(u, a["username"]) && pyEquals(p, a["password"]));
      if (!hit) throw new PyException("User not found.");
      env.instances.set("PersonalInfoUpdate", { ...inst, [hit[0]]: { ...hit[2], address: a["address"] } });
      return { status: "success" };
    },
    check: (r, g) => (assertSameName(r, g), pyEquals(r.input, g.input) && pyEquals(r.output, g.output)),
  },
  {
    name: "AddMeeting",
    set: "lv3_apis",
    params: [S("meeting_topic"), S("start_time"), S("end_time"), S("location"), { name: "attendees", type: "list(str)" }],
    call(a, env) {
      strptime(a["start_time"], "%Y-%m-%d %H:%M:%S");
      strptime(a["end_time"], "%Y-%m-%d %H:%M:%S");
      if (pyStrip(a["meeting_topic"]) === "") throw new PyException("Meeting Topic should not be null");
      const inst = env.instances.get("AddMeeting");
      const list = Array.isArray(inst["meetings"]) ? (inst["meetings"] as Json[]) : [];
      env.instances.set("AddMeeting", { ...inst, meetings: [...list, { ...a }] });
      return "success";
    },
    check(r, g) {
      const ok = contentSatisfied(asStr(inputOf(r, "meeting_topic"), "split"), asStr(inputOf(g, "meeting_topic"), "split"));
      return ok && pyEquals(inputWithout(r, "meeting_topic"), inputWithout(g, "meeting_topic")) && sameOutcome(r, g);
    },
  },
  {
    name: "QueryMeeting",
    set: "lv3_apis",
    params: [S("user_name")],
    call: (a) => ({ meetings: lookup(MEETINGS, a["user_name"]) }),
    check: checked,
  },
  {
    name: "ClothingRecommendation",
    set: "lv3_apis",
    params: [{ name: "temperature", type: "float" }, { name: "humidity", type: "float" }, S("weather_conditions")],
    call(a) {
      const t = a["temperature"];
      const h = a["humidity"];
      if (typeof t !== "number") throw new PyException(`'<' not supported between instances of '${pyTypeName(t)}' and 'int'`, "TypeError");
      if (typeof h !== "number") throw new PyException(`'>' not supported between instances of '${pyTypeName(h)}' and 'int'`, "TypeError");
      const out: string[] = [];
      if (t < 10) out.push("Warm coat", "Hat", "Gloves");
      if (t >= 10 && t < 20) out.push("Light jacket", "Long-sleeved shirt");
      if (t >= 20 && t < 30) out.push("T-shirt", "Shorts");
      if (t >= 30) out.push("Sun hat", "Sunglasses", "Loose-fitting clothes");
      if (h > 70) out.push("Umbrella", "Waterproof shoes");
      if (asStr(a["weather_conditions"], "lower").toLowerCase().includes("rain")) out.push("Raincoat");
      return { clothing_options: out };
    },
    check: checked,
  },
  {
    name: "EmailReminder",
    set: "lv3_apis",
    params: [S("content"), S("time"), S("location"), S("recipient")],
    call(a) {
      strptime(a["time"], "%Y-%m-%d %H:%M:%S");
      if (pyStrip(a["content"]) === "") throw new PyException("Content should not be empty");
      return "success";
    },
    check: (r, g) => (assertSameName(r, g), sameOutcome(r, g) && pyEquals(inputWithout(r, "content"), inputWithout(g, "content"))),
  },
  {
    name: "FlightSearch",
    set: "lv3_apis",
    params: [S("source"), S("destination"), S("travel_dates")],
    call(a, env) {
      const when = strptime(a["travel_dates"], "%Y-%m-%d");
      const inst = env.instances.get("FlightSearch");
      const returned = new Set(Array.isArray(inst["returned"]) ? (inst["returned"] as number[]) : []);
      const out: Json[] = [];
      FLIGHTS.forEach(([source, destination, day], i) => {
        if (source !== a["source"] || destination !== a["destination"]) return;
        if (returned.has(i)) throw new PyException("'str' object has no attribute 'date'", "AttributeError");
        if (compareDateTime(dt(2022, 1, day), when) !== 0) return;
        returned.add(i);
        out.push({ source, destination, departure_date: strftime(dt(2022, 1, day, 12), "%Y-%m-%d %H:%M:%S"), arrival_date: strftime(dt(2022, 1, day, 15), "%Y-%m-%d %H:%M:%S") });
      });
      env.instances.set("FlightSearch", { ...inst, returned: [...returned] });
      return { flights: out };
    },
    check: checked,
  },
  {
    name: "HotelAvailability",
    set: "lv3_apis",
    params: [S("destination"), S("check_in_date"), S("check_out_date")],
    call(a, env) {
      strptime(a["check_in_date"], "%Y-%m-%d");
      strptime(a["check_out_date"], "%Y-%m-%d");
      const ci = strptime(a["check_in_date"], "%Y-%m-%d");
      const co = strptime(a["check_out_date"], "%Y-%m-%d");
      const inst = env.instances.get("HotelAvailability");
      const returned = new Set(Array.isArray(inst["returned"]) ? (inst["returned"] as string[]) : []);
      const out: Json[] = [];
      for (const h of HOTELS) {
        if (h.destination !== a["destination"]) continue;
        if (!(compareDateTime(ci, h.in) >= 0 && compareDateTime(co, h.out) <= 0)) continue;
        if (returned.has(h.id)) throw new PyException("'str' object has no attribute 'strftime'", "AttributeError");
        returned.add(h.id);
        out.push({ destination: h.destination, check_in_date: strftime(h.in, "%Y-%m-%d"), check_out_date: strftime(h.out, "%Y-%m-%d") });
      }
      env.instances.set("HotelAvailability", { ...inst, returned: [...returned] });
      return { hotels: out };
    },
    check(r, g) {
      assertSameName(r, g);
      const same = (k: string): boolean => pyEquals(inputOf(r, k), inputOf(g, k));
      const hotels = (x: ApiBankResult): unknown => {
        if (x.output === null || typeof x.output !== "object") throw new PyException("'NoneType' object is not subscriptable", "TypeError");
        return (x.output as Json)["hotels"];
      };
      return same("destination") && same("check_in_date") && same("check_out_date") && pyEquals(hotels(r), hotels(g));
    },
  },
  {
    name: "Geocoding",
    set: "lv3_apis",
    params: [S("address")],
    call(a) {
      const hit = PLACES.find(([name]) => name === a["address"]);
      if (!hit) throw keyError(a["address"]);
      return { latitude: hit[1], longitude: hit[2] };
    },
    check: checked,
  },
  {
    name: "GetOccupationSalary",
    set: "lv3_apis",
    params: [S("occupation")],
    call(a) {
      if (typeof a["occupation"] !== "string" || !(a["occupation"] in SALARY)) throw new PyException("The occupation is not in the database.");
      return { salary: SALARY[a["occupation"]] };
    },
    check: checked,
  },
  {
    name: "GetWeatherForCoordinates",
    set: "lv3_apis",
    params: [{ name: "latitude", type: "float" }, { name: "longitude", type: "float" }],
    call(a) {
      const i = PLACES.findIndex(([, lat, lon]) => pyEquals(lat, a["latitude"]) && pyEquals(lon, a["longitude"]));
      // No weather for those coordinates: `None['temperature']` escapes the API (it only catches request errors).
      if (i < 0) throw new UncaughtPyError("'NoneType' object is not subscriptable", "TypeError");
      const w = WEATHER[i] as Json;
      return { temperature: w["temperature"], humidity: w["humidity"], description: w["description"] };
    },
    check: sameAll,
  },
  {
    name: "LikeCount",
    set: "lv3_apis",
    params: [{ name: "post_id", type: "int" }],
    call(a) {
      const id = a["post_id"];
      if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id > 15) throw new PyException(`Post with ID ${String(id)} does not exist.`);
      return { like_count: id * 10 };
    },
    check: checked,
  },
  {
    name: "MovieRecommendations",
    set: "lv3_apis",
    params: [{ name: "preferences", type: "list" }],
    call(a) {
      const prefs = a["preferences"];
      const items = typeof prefs === "string" ? [...prefs] : Array.isArray(prefs) ? prefs : undefined;
      if (items === undefined) throw new PyException(`'${pyTypeName(prefs)}' object is not iterable`, "TypeError");
      return { recommended_movies: items.flatMap((p) => lookup(MOVIE_GENRES, p)) };
    },
    check: checked,
  },
  {
    name: "NearbyRestaurants",
    set: "lv3_apis",
    params: [{ name: "latitude", type: "float" }, { name: "longitude", type: "float" }, { name: "distance", type: "int" }],
    call: () => ({ restaurants: structuredClone(RESTAURANTS) }),
    check: (r, g) => (assertSameName(r, g), pyEquals(r.input, g.input)),
  },
  {
    name: "OrganizationMembers",
    set: "lv3_apis",
    params: [S("organization")],
    call: (a) => ({ members: lookup(ORGANIZATIONS, a["organization"]) }),
    check: checked,
  },
  {
    name: "TaxCalculator",
    set: "lv3_apis",
    params: [{ name: "salary", type: "float" }],
    call(a) {
      const s = a["salary"];
      if (typeof s !== "number") throw new PyException(`'>=' not supported between instances of '${pyTypeName(s)}' and 'float'`, "TypeError");
      // The rate of the highest threshold reached: inf 0.4, 5000 0.3, 3000 0.2, 1000 0.1, 0 0.0; none: StopIteration ('').
      const rate = s >= Infinity ? 0.4 : s >= 5000 ? 0.3 : s >= 3000 ? 0.2 : s >= 1000 ? 0.1 : s >= 0 ? 0 : undefined;
      if (rate === undefined) throw new PyException("", "StopIteration");
      return { salary_after_tax: s - s * rate };
    },
    check(r, g) {
      assertSameName(r, g);
      const after = (x: ApiBankResult): unknown => {
        if (x.output === null || typeof x.output !== "object") throw new PyException("'NoneType' object is not subscriptable", "TypeError");
        return (x.output as Json)["salary_after_tax"];
      };
      return pyEquals(inputOf(r, "salary"), inputOf(g, "salary")) && pyEquals(after(r), after(g)) && r.exception === g.exception;
    },
  },
  {
    name: "TravelStatus",
    set: "lv3_apis",
    params: [S("member_name")],
    call: (a) => lookup(TRAVEL, a["member_name"]),
    check: checked,
  },
  {
    name: "UserPosts",
    set: "lv3_apis",
    params: [{ name: "user_id", type: "int" }],
    call: (a) => ({ post_ids: lookup(POSTS, a["user_id"]) }),
    check: checked,
  },
  {
    name: "UserWatchedMovies",
    set: "lv3_apis",
    params: [S("user_name")],
    call(a) {
      if (typeof a["user_name"] !== "string" || !(a["user_name"] in WATCHED)) throw new PyException("User not found.");
      return WATCHED[a["user_name"]];
    },
    check: checked,
  },
  {
    name: "UserMoviePreferences",
    set: "lv3_apis",
    params: [S("user_name")],
    call: (a) => ({ preferences: lookup(PREFERENCES, a["user_name"]) }),
    check: checked,
  },
  {
    name: "Calculator",
    set: "lv3_apis",
    params: [S("formula")],
    call: (a) => apiBankCalculate(a["formula"]),
    check: (r, g) => asStr(inputOf(r, "formula"), "replace").replace(/ /g, "") === asStr(inputOf(g, "formula"), "replace").replace(/ /g, "") && sameOutcome(r, g),
  },
];

