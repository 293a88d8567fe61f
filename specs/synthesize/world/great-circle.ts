/**
 * Distances on the Earth: the great-circle distance between two coordinates and the initial bearing from the
 * first to the second, in the units APIs answer in.
 */

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Kilometres per unit of distance an API may answer in. */
const KM_PER: Record<string, number> = { km: 1, kilometer: 1, kilometers: 1, kilometre: 1, kilometres: 1, m: 0.001, meter: 0.001, meters: 0.001, metre: 0.001, metres: 0.001, mi: 1.609344, mile: 1.609344, miles: 1.609344, nmi: 1.852, nm: 1.852, nauticalmile: 1.852, nauticalmiles: 1.852 };

/** The great-circle distance in kilometres between two coordinates. */
export function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lon2 - lon1) * RAD) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The initial bearing in degrees (0-360, clockwise from north) from the first coordinate to the second. */
export function initialBearing(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const y = Math.sin((lon2 - lon1) * RAD) * Math.cos(lat2 * RAD);
  const x = Math.cos(lat1 * RAD) * Math.sin(lat2 * RAD) - Math.sin(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.cos((lon2 - lon1) * RAD);
  return ((Math.atan2(y, x) / RAD) + 360) % 360;
}

/** Kilometres in one of a unit (`km`, `mi`, `nmi`, `m`), or undefined for a unit that is not a distance's. */
export function kmPerUnit(unit: string): number | undefined {
  return KM_PER[unit.toLowerCase().replace(/[^a-z]/g, "")];
}
