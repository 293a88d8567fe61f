import type { ResourceStore } from "../../specs/respond/resource-store.js";
import { signatureArgs, type ApiBankResult, type ApiBankSet } from "./apibank-api.js";
import { apiBankImplementation } from "./apibank-apis.js";
import { PyTable } from "./apibank-db.js";

/*
 * API-Bank result records (`{api_name, input, output, exception}`) of calls answered over HTTP-like results,
 * and the one repair a replay of recorded dialogues needs: what an API drew at random (a new appointment id,
 * a new user's token) is set to what the recording drew, so the later calls of the dialogue that use it agree.
 */

type Json = Record<string, unknown>;

/** The record of a call from its arguments and its answer (200: the output; 400: `{exception}`). */
export function recordOfAnswer(set: ApiBankSet, name: string, args: Json, status: number, body: unknown): ApiBankResult {
  const api = apiBankImplementation(set, name);
  let input: Json | null = args;
  try {
    if (api) input = signatureArgs(api, args);
  } catch {
    input = args;
  }
  if (api?.input) input = api.input(input ?? {});
  const head = api?.withApiName === false ? {} : { api_name: name };
  if (status >= 400) {
    const e = body !== null && typeof body === "object" ? (body as Json)["exception"] : undefined;
    return { ...head, input, output: null, exception: typeof e === "string" ? e : `status ${status}` };
  }
  return { ...head, input, output: body ?? null, exception: null };
}

/** Sets what an API drew at random to the recorded value (AppointmentRegistration's id, RegisterUser's token). */
export function pinToRecording(name: string, store: ResourceStore, ours: unknown, recorded: unknown): boolean {
  if (name === "AppointmentRegistration" && typeof ours === "string" && typeof recorded === "string" && ours !== recorded) {
    const table = new PyTable(store, "Appointments");
    const entry = table.get(ours);
    if (entry === undefined || table.has(recorded)) return false;
    table.delete(ours);
    table.set(recorded, entry);
    return true;
  }
  if (name === "RegisterUser") {
    const token = (v: unknown): unknown => (v !== null && typeof v === "object" ? (v as Json)["token"] : undefined);
    const [mine, theirs] = [token(ours), token(recorded)];
    if (typeof mine !== "string" || typeof theirs !== "string" || mine === theirs) return false;
    const table = new PyTable(store, "Account");
    for (const [user, acc] of table.entries()) {
      if ((acc as Json)["token"] === mine) {
        table.set(user, { ...(acc as Json), token: theirs });
        return true;
      }
    }
  }
  return false;
}

/** APIs whose output API-Bank draws at random. */
export const RANDOM_OUTPUT_APIS: ReadonlySet<string> = new Set(["AppointmentRegistration", "RegisterUser"]);
