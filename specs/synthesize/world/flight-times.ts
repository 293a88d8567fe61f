import { AIRPORTS, findCity, type City } from "./world-data.js";
import { offsetOn } from "./world-exchanges.js";

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

function distanceKm(a: City, b: City): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Minutes of a direct flight between two airports (800 km/h plus 30 minutes, to 5 minutes); undefined for one the world does not know. */
export function flightMinutes(from: string, to: string): number | undefined {
  const a = airportCity(from);
  const b = airportCity(to);
  if (a === undefined || b === undefined || from === to) return undefined;
  return Math.max(35, Math.round((distanceKm(a, b) / 800) * 12 + 6) * 5);
}

/** The UTC offset of an airport's clock on a day (`+01:00`). */
export function airportOffset(iata: string, day: string): string | undefined {
  const city = airportCity(iata);
  return city === undefined ? undefined : offsetOn(city.timeZone, day);
}
