import { AIRPORTS, findCity, type City } from "./world-data.js";
import { offsetOn } from "./world-exchanges.js";
import { greatCircleKm } from "./great-circle.js";

/**
 * Times of flights between the world's airports: how long a direct flight takes (its great-circle distance at
 * a jet's cruise, plus taxi, climb and approach) and the UTC offset of an airport's clock on a day, so that a
 * Porto-New York flight lasts hours, not minutes, and lands in New York's time.
 */

const byIata = new Map<string, City | undefined>();

/** The city of an airport of the world, by IATA code. */
export function airportCity(iata: string): City | undefined {
  if (!byIata.has(iata)) {
    const airport = AIRPORTS.find((a) => a.iata === iata);
    byIata.set(iata, airport === undefined ? undefined : findCity(airport.city));
  }
  return byIata.get(iata);
}

/** Minutes of a direct flight between two airports (800 km/h plus 30 minutes, to 5 minutes); undefined for one the world does not know. */
export function flightMinutes(from: string, to: string): number | undefined {
  const a = airportCity(from);
  const b = airportCity(to);
  if (a === undefined || b === undefined || from === to) return undefined;
  return Math.max(35, Math.round((greatCircleKm(a.lat, a.lon, b.lat, b.lon) / 800) * 12 + 6) * 5);
}

/** The UTC offset of an airport's clock on a day (`+01:00`). */
export function airportOffset(iata: string, day: string): string | undefined {
  const city = airportCity(iata);
  return city === undefined ? undefined : offsetOn(city.timeZone, day);
}
