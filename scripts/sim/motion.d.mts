// Types of motion.mjs for the TypeScript tests that import it.
export interface Centre {
  lat: number;
  lon: number;
}
export interface Truck extends Centre {
  random: () => number;
  centre: Centre;
  timeMs: number;
  heading: number;
  speed: number;
  cruise: number;
  ignition: boolean;
  phaseLeftS: number;
  odometerM: number;
  hours: number;
}
export interface Report extends Centre {
  timeMs: number;
  speed: number;
  course: number;
  altitude: number;
  ignition: boolean;
  odometerM: number;
  hours: number;
}
export const DEFAULT_CENTRE: Centre;
export const TURN_BACK_KM: number;
export const SPEED_MIN: number;
export const SPEED_MAX: number;
export const DRIVE_S: [number, number];
export const PARK_S: [number, number];
export function seededRandom(seed: number): () => number;
export function distanceKm(a: Centre, b: Centre): number;
export function createTruck(options: {
  random: () => number;
  timeMs: number;
  centre?: Centre;
  radiusKm?: number;
}): Truck;
export function advance(truck: Truck, dtMs: number): Report;
export function report(truck: Truck): Report;
