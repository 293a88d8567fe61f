/** The kinds of bindings (what a request says about its response), as data: the types alone, so inference and checks can share them without importing the registry. */
/**
 * How a value is compared: `exact` (folded text, numbers by value, codes and names of a country or language
 * alike), `contains` (a part of a text, an element of a list), `day` (dates by day), `year` (the year of a
 * date), `near` (coordinates within half a degree), `selects` (the field is a list that may have items only
 * when the argument names it: `type=track` leaves `albums` empty), `oneOf` (the field is one of the argument's
 * values: `countries: [SE, PT]` -> each hit's country is SE or PT).
 */
export type BindingMatch = "exact" | "contains" | "day" | "year" | "near" | "selects" | "oneOf";

interface BindingBase {
  /** Why it holds, in words (shown with the binding). */
  note?: string;
  /** Where it comes from: inferred from the spec, or declared by a toolset. */
  source?: "inferred" | "declared";
}

/** A response field holds an argument's value (`city` -> `location.name`, `email` -> `user.email`). */
export interface EqualsBinding extends BindingBase {
  kind: "equals";
  arg: string;
  field: string;
  match?: BindingMatch;
}

/** Every item of a list answers to an argument (`region` -> `[].region`, `year` -> `holidays[].date`). */
export interface FilterBinding extends BindingBase {
  kind: "filter";
  arg: string;
  field: string;
  match?: BindingMatch;
}

/** A bound on a field of every item (`from` -> `[].date` min, `maxPrice` -> `items[].price` max). */
export interface RangeBinding extends BindingBase {
  kind: "range";
  arg: string;
  field: string;
  bound: "min" | "max";
}

/**
 * The answer is dated by the simulated today: a field that says what day it is (`equals`: `isTodayHoliday` ->
 * `date`), items that come next (`min`: `getNextHolidays` -> `[].date` on or after today) or came before
 * (`max`: `recentOrders` -> `[].createdAt` on or before today). An argument that names another day (`date`,
 * `from`) takes over when it is given.
 */
export interface TodayBinding extends BindingBase {
  kind: "today";
  field: string;
  bound: "equals" | "min" | "max";
  /** With `min`: the first item is today, not only on or after it (a forecast starts today). */
  starts?: boolean;
  /** The argument that names the day instead, when it is given. */
  arg?: string;
}

/** Every item of a search mentions what is searched for in one of its fields (`q` -> `results[].name`). */
export interface SearchBinding extends BindingBase {
  kind: "search";
  arg: string;
  /** The fields searched, best first (paths into the same list: `results[].name`, `results[].symbol`). */
  fields: string[];
}

/** An end of a route: the first leg leaves from the origin, the last arrives at the destination. */
export interface RouteBinding extends BindingBase {
  kind: "route";
  arg: string;
  field: string;
}

/** A request's reference to another resource (`items[].bookId`) brings that resource's fields into the answer. */
export interface ReferenceBinding extends BindingBase {
  kind: "reference";
  /** The argument holding the referenced id (a path into the arguments). */
  arg: string;
  /** The referenced resources' collection path (`/books`). */
  collection: string;
  /** Response field path -> the referenced resource's field (`items[].unitPrice` -> `price`). */
  fields: Record<string, string>;
}

/** An action leaves its resource's field at a value (`cancelBooking` -> `status: cancelled`). */
export interface EffectBinding extends BindingBase {
  kind: "effect";
  field: string;
  value: string | number | boolean;
}

/** A computed total: the sum of `price` x `quantity` over `items`, or the sum of `add` minus `subtract`. */
export interface TotalBinding extends BindingBase {
  kind: "total";
  field: string;
  items?: string;
  price?: string;
  quantity?: string;
  add?: string[];
  subtract?: string[];
}

/** Stock a request consumes: the referenced resource's `field` must cover the quantity, else the answer is an error. */
export interface StockBinding extends BindingBase {
  kind: "stock";
  /** The argument holding the referenced id (`items[].bookId`). */
  arg: string;
  collection: string;
  /** The referenced resource's stock field (`stock`; a boolean such as `available` works too). */
  field: string;
  /** The argument holding the quantity (`items[].quantity`; 1 when absent). */
  quantity?: string;
  /** The error status to answer (default: the first of 409, 422, 400 the operation declares). */
  status?: number;
}

/**
 * A span the call asks for is the length of a list: of a dated list (`days=5` -> `days[]` lists five days), whose
 * items are added one step apart (the list's own step, else a `day` or an `hour`), or of what a generator makes
 * (`generateUuids(count=5)` -> five uuids: `item`), whose items are new ones like its own.
 */
export interface SpanBinding extends BindingBase {
  kind: "span";
  arg: string;
  /** The list (`days[]`). */
  field: string;
  unit: "day" | "hour" | "item";
}

/** Declared only: removes the inferred bindings of an argument or a field. */
export interface NoBinding extends BindingBase {
  kind: "none";
  arg?: string;
  field?: string;
}

/** What a request says about its response. */
export type Binding = EqualsBinding | FilterBinding | RangeBinding | TodayBinding | SpanBinding | SearchBinding | RouteBinding | ReferenceBinding | EffectBinding | TotalBinding | StockBinding | NoBinding;

/** The kinds of bindings. */
export const BINDING_KINDS = ["equals", "filter", "range", "today", "span", "search", "route", "reference", "effect", "total", "stock", "none"] as const;

/** Bindings declared by a toolset, by tool name or operationId. */
export type DeclaredBindings = Record<string, Binding[]>;
