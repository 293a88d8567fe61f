import { describe, expect, it } from "vitest";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import type { ApiBankSet } from "../../../toolsets/apibank/apibank-api.js";
import { checkApiBankCall, runApiBankCall } from "../../../toolsets/apibank/apibank-apis.js";
import { databaseCollection, databaseFixtures } from "../../../toolsets/apibank/apibank-db.js";
import { apiBankCalculate } from "../../../toolsets/apibank/calculator.js";
import { pyFloatRepr, strptime } from "../../../toolsets/apibank/py.js";
import { ToolSearchIndex } from "../../../toolsets/apibank/tool-searcher.js";

/**
 * API-Bank's APIs against values worked out from the authors' Python implementation (`reference/apis`,
 * `reference/lv3_apis`): outputs, exception messages and the state they keep.
 */

const ACCOUNT = { JohnDoe: { password: "pass123", token: "a9s8d7f6g5h4j3k2l1", email: "johndoe@example.com" } };

function store(dbs: Record<string, unknown> = { Account: ACCOUNT }): ResourceStore {
  return ResourceStore.fromFixtures(Object.fromEntries(Object.entries(dbs).map(([n, d]) => [databaseCollection(n), databaseFixtures(n, d)])));
}

function run(set: ApiBankSet, name: string, args: Record<string, unknown>, s = store()) {
  const out = runApiBankCall(set, name, args, s, { seed: 1 });
  if (!out.ok) return { uncaught: `${out.uncaught.type}: ${out.uncaught.message}` };
  return { output: out.result.output, exception: out.result.exception };
}

describe("Python's numbers and dates", () => {
  it.each([
    [77.33333333333333, "77.33333333333333"],
    [6, "6.0"],
    [0.00001, "1e-05"],
    [0.0001, "0.0001"],
    [1e16, "1e+16"],
    [123456789012345.6, "123456789012345.6"],
    [-2.5, "-2.5"],
  ])("repr(%s) is %s", (x, repr) => expect(pyFloatRepr(x)).toBe(repr));

  it("parses as strptime does: one-digit hours pass, impossible days and extra text do not", () => {
    expect(strptime("2023-03-30 8:00:00", "%Y-%m-%d %H:%M:%S")).toMatchObject({ year: 2023, month: 3, day: 30, hour: 8 });
    expect(() => strptime("2023-02-30", "%Y-%m-%d")).toThrow("day is out of range for month");
    expect(() => strptime("2023-02-03 10:00", "%Y-%m-%d")).toThrow("unconverted data remains:  10:00");
    expect(() => strptime("tomorrow", "%Y-%m-%d")).toThrow("time data 'tomorrow' does not match format '%Y-%m-%d'");
  });
});

describe("Calculator, step for step", () => {
  it.each([
    ["25*3+7/3", 77.33333333333333],
    ["(5*6)/(2+3)", 6],
    ["2*(3)", 6],
    ["10/4", 2.5],
    ["1+2*3-4", 3],
    ["8/2/2", 2],
  ])("%s = %s", (f, v) => expect(apiBankCalculate(f)).toBe(v));
  it.each([
    ["1/0", "float division by zero"],
    ["2^3", "invalid formula"],
    ["((1+2))", "')' is not in list"],
    ["12", "invalid formula"],
    ["-5+3", "loop forever"],
  ])("%s raises %s", (f, message) => expect(() => apiBankCalculate(f)).toThrow(message));
});

describe("level-1/2 APIs", () => {
  it("hands a token for the right password only, and checks tokens", () => {
    expect(run("apis", "GetUserToken", { username: "JohnDoe", password: "pass123" })).toEqual({ output: { token: "a9s8d7f6g5h4j3k2l1" }, exception: null });
    expect(run("apis", "GetUserToken", { username: "JohnDoe", password: "nope" })).toEqual({ output: null, exception: "The password is incorrect." });
    expect(run("apis", "GetUserToken", { username: "nobody", password: "x" })).toEqual({ output: null, exception: "The username does not exist." });
    expect(run("apis", "AddAlarm", { token: "forged", time: "2023-03-30 08:00:00" }).exception).toBe("The token is invalid.");
  });

  it("keeps state: an alarm added is found, a reminder modified, ForgotPassword's code between its calls", () => {
    const s = store({ Account: ACCOUNT, Alarm: {}, Reminder: {} });
    expect(run("apis", "AddAlarm", { token: "a9s8d7f6g5h4j3k2l1", time: "2023-03-30 8:00:00" }, s).output).toBe("success");
    expect(run("apis", "QueryAlarm", { token: "a9s8d7f6g5h4j3k2l1", time: "2023-03-30 8:00:00" }, s).output).toEqual({ username: "JohnDoe", time: "2023-03-30 8:00:00" });
    expect(run("apis", "QueryAlarm", { token: "a9s8d7f6g5h4j3k2l1", time: "2023-03-31 08:00:00" }, s).exception).toBe("You have no alarm clock at time : 2023-03-31 08:00:00");
    expect(run("apis", "ForgotPassword", { status: "Verification Code", verification_code: 970420, new_password: "n" }, s).exception).toBe("You need to call the API with status 'Forgot Password' at first.");
    expect(run("apis", "ForgotPassword", { status: "Forgot Password", username: "JohnDoe", email: "johndoe@example.com" }, s).output).toBe(970420);
    expect(run("apis", "ForgotPassword", { status: "Verification Code", verification_code: 970420, new_password: "fresh" }, s).output).toBe("success");
    expect(run("apis", "GetUserToken", { username: "JohnDoe", password: "fresh" }, s).output).toEqual({ token: "a9s8d7f6g5h4j3k2l1" });
  });

  it("normalizes as the authors do: scenes lower-cased and sorted, dates zero-filled, history by month-day", () => {
    const s = store({ Scenes: {}, History: { "03-31": [{ Title: " T ", Date: "1889", Description: "Tower " }] } });
    const added = runApiBankCall("apis", "AddScene", { name: " Movie Night ", devices: [{ name: "TV ", description: "big" }, { name: "Light", description: " dim" }] }, s);
    expect(added.ok && added.result.input?.["devices"]).toEqual([{ name: "light", description: "dim" }, { name: "tv", description: "big" }]);
    expect(run("apis", "QueryScene", { name: "movie night" }, s).output).toEqual([{ name: "light", description: "dim" }, { name: "tv", description: "big" }]);
    expect(run("apis", "QueryHistoryToday", { date: "2023-03-31" }, s).output).toEqual(["Title: T, Date: 1889, Description: Tower"]);
  });

  it("judges calls with each API's own check", () => {
    const res = (time: string) => ({ api_name: "AddAlarm", input: { token: "t", time }, output: "success", exception: null });
    expect(checkApiBankCall("apis", "AddAlarm", res("2023-03-30 08:00:00"), res("2023-03-30 08:00:00")).correct).toBe(true);
    expect(checkApiBankCall("apis", "AddAlarm", res("2023-03-30 8:00:00"), res("2023-03-30 08:00:00")).correct).toBe(false);
    const appt = (id: string) => ({ api_name: "AppointmentRegistration", input: { patient_name: "A ", date: "2023-4-1", doctor_name: "B" }, output: id, exception: null });
    expect(checkApiBankCall("apis", "AppointmentRegistration", appt("11111111"), appt("22222222")).correct).toBe(true);
    // The authors' DeleteMeeting check reads an input the API has not: a KeyError, an incorrect call.
    const del = { api_name: "DeleteMeeting", input: { token: "t", meeting_topic: "x", start_time: "", end_time: "", location: "", attendees: [] }, output: "success", exception: null };
    expect(checkApiBankCall("apis", "DeleteMeeting", del, del)).toEqual({ correct: false, error: "KeyError: 'time'" });
  });
});

describe("the 22 level-3 APIs", () => {
  it.each<[string, Record<string, unknown>, { output?: unknown; exception?: string | null; uncaught?: string }]>([
    ["AccountInfo", { username: "Mary", password: "abcdef" }, { output: { email: "mary@example.com", phone: "0987654321" }, exception: null }],
    ["AccountInfo", { username: "Mary", password: "x" }, { output: null, exception: "User not found." }],
    ["PersonalInfoUpdate", { username: "Tom", password: "asdfgh", address: "1 Main St" }, { output: { status: "success" }, exception: null }],
    ["AddMeeting", { meeting_topic: "Sync", start_time: "2023-01-01 10:00:00", end_time: "2023-01-01 11:00:00", location: "A", attendees: ["Tom"] }, { output: "success", exception: null }],
    ["AddMeeting", { meeting_topic: " ", start_time: "2023-01-01 10:00:00", end_time: "2023-01-01 11:00:00", location: "A", attendees: [] }, { output: null, exception: "Meeting Topic should not be null" }],
    ["QueryMeeting", { user_name: "Tom" }, { output: { meetings: [{ meeting_id: 1, meeting_name: "Meeting", meeting_time: "2021-01-01 10:00:00", meeting_location: "Room 1", meeting_attendees: ["Tom", "Jerry"] }] }, exception: null }],
    ["QueryMeeting", { user_name: "Zed" }, { output: null, exception: "'Zed'" }],
    ["ClothingRecommendation", { temperature: 25, humidity: 80, weather_conditions: "Light Rain" }, { output: { clothing_options: ["T-shirt", "Shorts", "Umbrella", "Waterproof shoes", "Raincoat"] }, exception: null }],
    ["EmailReminder", { content: "hi", time: "2023-01-01", location: "x", recipient: "a@b.c" }, { output: null, exception: "time data '2023-01-01' does not match format '%Y-%m-%d %H:%M:%S'" }],
    ["FlightSearch", { source: "New York", destination: "London", travel_dates: "2022-01-04" }, { output: { flights: [{ source: "New York", destination: "London", departure_date: "2022-01-04 12:00:00", arrival_date: "2022-01-04 15:00:00" }] }, exception: null }],
    ["HotelAvailability", { destination: "San Francisco", check_in_date: "2022-01-02", check_out_date: "2022-01-03" }, { output: { hotels: [{ destination: "San Francisco", check_in_date: "2022-01-02", check_out_date: "2022-01-03" }] }, exception: null }],
    ["Geocoding", { address: "Paris" }, { output: { latitude: 48.8566, longitude: 2.3522 }, exception: null }],
    ["Geocoding", { address: "Atlantis" }, { output: null, exception: "'Atlantis'" }],
    ["GetOccupationSalary", { occupation: "Doctor" }, { output: { salary: 200000 }, exception: null }],
    ["GetOccupationSalary", { occupation: "Pilot" }, { output: null, exception: "The occupation is not in the database." }],
    ["GetWeatherForCoordinates", { latitude: 48.8566, longitude: 2.3522 }, { output: { temperature: 15, humidity: 0.7, description: "Sunny" }, exception: null }],
    ["GetWeatherForCoordinates", { latitude: 1, longitude: 2 }, { uncaught: "TypeError: 'NoneType' object is not subscriptable" }],
    ["LikeCount", { post_id: 3 }, { output: { like_count: 30 }, exception: null }],
    ["LikeCount", { post_id: 99 }, { output: null, exception: "Post with ID 99 does not exist." }],
    ["MovieRecommendations", { preferences: ["Romance"] }, { output: { recommended_movies: ["Titanic", "La La Land", "The Notebook"] }, exception: null }],
    ["MovieRecommendations", { preferences: ["Horror"] }, { output: null, exception: "'Horror'" }],
    ["NearbyRestaurants", { latitude: 0, longitude: 0, distance: 10 }, { output: { restaurants: [{ coordinates: [40.7128, 74.006], name: "Restaurant A" }, { coordinates: [37.7749, 122.4194], name: "Restaurant B" }, { coordinates: [40.7128, 74.006], name: "Restaurant C" }, { coordinates: [37.7749, 122.4194], name: "Restaurant D" }] }, exception: null }],
    ["OrganizationMembers", { organization: "Tencent" }, { output: { members: ["Tom", "Jerry"] }, exception: null }],
    ["TaxCalculator", { salary: 100000 }, { output: { salary_after_tax: 70000 }, exception: null }],
    ["TaxCalculator", { salary: 2000 }, { output: { salary_after_tax: 1800 }, exception: null }],
    ["TravelStatus", { member_name: "Mary" }, { output: "Working from home", exception: null }],
    ["UserPosts", { user_id: 2 }, { output: { post_ids: [4, 5, 6] }, exception: null }],
    ["UserWatchedMovies", { user_name: "John" }, { output: ["The Matrix", "The Lord of the Rings", "The Dark Knight"], exception: null }],
    ["UserWatchedMovies", { user_name: "Zed" }, { output: null, exception: "User not found." }],
    ["UserMoviePreferences", { user_name: "Mary" }, { output: { preferences: ["Comedy", "Drama", "Romance"] }, exception: null }],
    ["Calculator", { formula: "(3+4)*5" }, { output: 35, exception: null }],
  ])("%s(%j)", (name, args, expected) => expect(run("lv3_apis", name, args)).toEqual(expected));

  it("turns returned dates into text, so asking again for the same flight or hotel raises as in Python", () => {
    const s = store({});
    const args = { source: "New York", destination: "San Francisco", travel_dates: "2022-01-01" };
    expect(run("lv3_apis", "FlightSearch", args, s).exception).toBeNull();
    expect(run("lv3_apis", "FlightSearch", args, s)).toEqual({ output: null, exception: "'str' object has no attribute 'date'" });
    const h = { destination: "San Francisco", check_in_date: "2022-01-05", check_out_date: "2022-01-06" };
    expect(run("lv3_apis", "HotelAvailability", h, s).exception).toBeNull();
    expect(run("lv3_apis", "HotelAvailability", h, s).exception).toBe("'str' object has no attribute 'strftime'");
  });

  it("ToolSearcher finds the API keywords describe, GetUserToken first for an API that takes a token", () => {
    const lv3 = new ToolSearchIndex([
      { name: "GetOccupationSalary", description: "API for querying the salary of a given occupation.", input_parameters: { occupation: {} }, output_parameters: {} },
      { name: "TaxCalculator", description: "API for calculating tax deductions based on the given salary.", input_parameters: { salary: {} }, output_parameters: {} },
      { name: "Calculator", description: "This API provides basic arithmetic operations.", input_parameters: { formula: {} }, output_parameters: {} },
    ]);
    expect((lv3.search("Get Occupation Salary") as { name: string }).name).toBe("GetOccupationSalary");
    expect((lv3.search("Tax Calculator") as { name: string }).name).toBe("TaxCalculator");
    expect((lv3.search("calculate 25*3+7/3") as { name: string }).name).toBe("Calculator");
    const lv1 = new ToolSearchIndex([
      { name: "GetUserToken", description: "Get the user token.", input_parameters: { username: {}, password: {} }, output_parameters: {} },
      { name: "AddAlarm", description: "The API for setting an alarm includes a parameter for the time.", input_parameters: { token: {}, time: {} }, output_parameters: {} },
      { name: "DeleteAlarm", description: "The API for removing an alarm includes a parameter for the time.", input_parameters: { token: {}, time: {} }, output_parameters: {} },
    ]);
    const found = lv1.search("alarm") as Array<{ name: string; desc_for_search?: string }>;
    expect(found.map((f) => f.name)).toEqual(["GetUserToken", "AddAlarm"]);
    expect(found[0]?.desc_for_search).toBe("get user tokenGet the user token.");
    expect((lv1.search("remove my alarm") as Array<{ name: string }>)[1]?.name).toBe("DeleteAlarm");
  });
});
