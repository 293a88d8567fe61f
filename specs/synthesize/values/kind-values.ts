import type { Faker } from "@faker-js/faker";

/**
 * What a `type` or `kind` field without listed values says of its record, by what it is the type of: the word
 * before `_type` (`airport_type`), else the record around it (a `type` under `vehicle`). An airport is a
 * `medium_airport`, a phone number `mobile`; a random noun ("celsius" for an airport type) reads as nonsense.
 */
const KINDS: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/airport|aerodrome|airfield/, ["large_airport", "medium_airport", "small_airport", "heliport"]],
  [/runway|surface/, ["asphalt", "concrete", "grass", "gravel"]],
  [/frequenc|radio/, ["TWR", "GND", "ATIS", "APP"]],
  [/flight|trip|journey|fare/, ["one_way", "round_trip"]],
  [/account|customer|client/, ["personal", "business"]],
  [/user|member|role|principal/, ["admin", "member", "guest"]],
  [/file|document|attachment|media|asset|upload/, ["image", "document", "video", "audio"]],
  [/payment|card|billing/, ["card", "bank_transfer", "wallet"]],
  [/transaction|entry|ledger|transfer/, ["debit", "credit", "transfer"]],
  [/vehicle|car/, ["car", "van", "truck", "motorcycle"]],
  [/propert|room|accommodation|lodging|listing|home|house/, ["apartment", "house", "studio", "room"]],
  [/event|meeting|session/, ["conference", "workshop", "meetup", "webinar"]],
  [/place|location|venue|poi|point|spot/, ["restaurant", "museum", "park", "hotel"]],
  [/phone|contact/, ["mobile", "home", "work"]],
  [/address/, ["home", "work", "billing", "shipping"]],
  [/subscription|plan|licen[cs]e|tier|membership|pricing/, ["free", "basic", "premium"]],
  [/device|platform|os/, ["mobile", "desktop", "tablet"]],
  [/fuel|engine|energy/, ["petrol", "diesel", "electric", "hybrid"]],
  [/setting|value|field|param|attribute|variable|column|property|data/, ["string", "number", "boolean"]],
  [/content|resource|item|post|media/, ["article", "video", "image", "link"]],
  [/alert|warning|weather/, ["warning", "watch", "advisory"]],
  [/business|company|organi[sz]ation|org|entity/, ["corporation", "llc", "partnership", "nonprofit"]],
  [/error|issue|problem|exception/, ["validation_error", "not_found", "rate_limited"]],
  [/notification|message|channel/, ["email", "sms", "push"]],
  [/order|delivery|shipping|shipment/, ["standard", "express", "pickup"]],
  [/product|good|sku/, ["physical", "digital", "service"]],
  [/job|employment|position|work/, ["full_time", "part_time", "contract"]],
  [/question|quiz/, ["multiple_choice", "true_false", "open"]],
];

/** Types of anything else: words that fit most records. */
const GENERAL = ["standard", "basic", "custom", "default"];

/** A type for a field named `snake` (snake_case) under `parents` (the innermost last). */
export function kindValue(f: Faker, snake: string, parents: string): string {
  const head = snake.replace(/_?(type|kind)$/, "");
  const last = parents.split(" ").pop() ?? "";
  for (const subject of [head, last]) {
    if (subject === "") continue;
    const hit = KINDS.find(([re]) => re.test(subject));
    if (hit) return f.helpers.arrayElement(hit[1]);
  }
  return f.helpers.arrayElement(GENERAL);
}
