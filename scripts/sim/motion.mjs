// Plausible truck motion for the device simulator (`npm run simulate`, DESIGN §3 "Telematics
// ingestion"): a drive along a heading that drifts and now and then turns at a crossing, speeds that
// wander within a truck's range, an odometer in metres that grows with the distance actually driven,
// and ignition cycles (drive with the ignition on, park with it off) with engine hours counted while the
// ignition is on. Pure: time advances only through `advance`, randomness only through the injected
// `random`, so that the unit tests replay a drive exactly.

const KM_PER_DEGREE = 111.32;
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Where the trucks drive unless told otherwise: around Minsk, as the demo's units (server demo/data.ts). */
export const DEFAULT_CENTRE = { lat: 53.9, lon: 27.56 };
/** Beyond this distance from the centre a truck heads back (it stays within about this radius). */
export const TURN_BACK_KM = 40;
/** A truck's cruising speeds, km/h, and how fast it changes speed, km/h per second. */
export const SPEED_MIN = 30;
export const SPEED_MAX = 90;
const ACCELERATION = 2;
/** A drive lasts 10 to 60 minutes, a stop with the ignition off 2 to 15. */
export const DRIVE_S = [600, 3600];
export const PARK_S = [120, 900];
/** On average a crossing (a turn of about 90°) every two minutes of driving. */
const MEAN_TURN_S = 120;
/** On average a new cruising speed every minute. */
const MEAN_SPEED_CHANGE_S = 60;
/** A step is computed over at most this long (a longer `dt` is cut into such steps). */
const MAX_STEP_S = 10;

/** A small seeded generator (mulberry32): the same seed gives the same drive. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (random, [min, max]) => min + random() * (max - min);

/** Great-circle distance in km. */
export function distanceKm(a, b) {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function bearingDeg(from, to) {
  const y = Math.sin((to.lon - from.lon) * RAD) * Math.cos(to.lat * RAD);
  const x =
    Math.cos(from.lat * RAD) * Math.sin(to.lat * RAD) -
    Math.sin(from.lat * RAD) * Math.cos(to.lat * RAD) * Math.cos((to.lon - from.lon) * RAD);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

/**
 * A truck at a random place within `radiusKm` of `centre`, parked or starting a drive, with an odometer
 * of 50,000 to 400,000 km and 1,000 to 10,000 engine hours.
 */
export function createTruck({ random, timeMs, centre = DEFAULT_CENTRE, radiusKm = 20 }) {
  const r = radiusKm * Math.sqrt(random());
  const angle = random() * 2 * Math.PI;
  const lat = centre.lat + (r * Math.cos(angle)) / KM_PER_DEGREE;
  const lon = centre.lon + (r * Math.sin(angle)) / (KM_PER_DEGREE * Math.cos(centre.lat * RAD));
  const driving = random() < 0.7;
  return {
    random,
    centre,
    timeMs,
    lat,
    lon,
    heading: random() * 360,
    speed: 0,
    cruise: between(random, [SPEED_MIN, SPEED_MAX]),
    ignition: driving,
    phaseLeftS: driving ? between(random, DRIVE_S) : between(random, PARK_S),
    odometerM: Math.round(between(random, [50_000_000, 400_000_000])),
    hours: Math.round(between(random, [1000, 10_000]) * 100) / 100,
  };
}

/** One step of at most MAX_STEP_S seconds. */
function step(truck, dt) {
  const { random } = truck;
  truck.phaseLeftS -= dt;
  if (!truck.ignition) {
    if (truck.phaseLeftS <= 0) {
      // The driver is back: ignition on, off it goes (from standstill).
      truck.ignition = true;
      truck.phaseLeftS = between(random, DRIVE_S);
      truck.cruise = between(random, [SPEED_MIN, SPEED_MAX]);
    }
    return;
  }
  truck.hours += dt / 3600;
  if (truck.phaseLeftS <= 0) {
    // Parks: stops where it is and switches the ignition off.
    truck.ignition = false;
    truck.speed = 0;
    truck.phaseLeftS = between(random, PARK_S);
    return;
  }
  const here = { lat: truck.lat, lon: truck.lon };
  if (distanceKm(here, truck.centre) > TURN_BACK_KM) {
    truck.heading = (bearingDeg(here, truck.centre) + (random() - 0.5) * 40 + 360) % 360;
  } else if (random() < dt / MEAN_TURN_S) {
    truck.heading = (truck.heading + (random() < 0.5 ? -90 : 90) + (random() - 0.5) * 20 + 360) % 360;
  } else {
    truck.heading = (truck.heading + (random() - 0.5) * 6 * Math.sqrt(dt) + 360) % 360;
  }
  if (random() < dt / MEAN_SPEED_CHANGE_S) truck.cruise = between(random, [SPEED_MIN, SPEED_MAX]);
  const change = Math.max(-ACCELERATION * dt, Math.min(ACCELERATION * dt, truck.cruise - truck.speed));
  const before = truck.speed;
  truck.speed = Math.min(SPEED_MAX, Math.max(0, truck.speed + change));
  const km = (((before + truck.speed) / 2) * dt) / 3600;
  const heading = truck.heading * RAD;
  truck.lat += (km * Math.cos(heading)) / KM_PER_DEGREE;
  truck.lon += (km * Math.sin(heading)) / (KM_PER_DEGREE * Math.cos(truck.lat * RAD));
  // The odometer counts the way driven, as the positions show it.
  truck.odometerM += distanceKm(here, truck) * 1000;
}

/**
 * Moves the truck on by `dtMs` and returns its report at the new time: position, speed (km/h), course,
 * ignition, odometer (whole metres) and engine hours.
 */
export function advance(truck, dtMs) {
  let left = dtMs / 1000;
  while (left > 0) {
    const dt = Math.min(MAX_STEP_S, left);
    step(truck, dt);
    left -= dt;
  }
  truck.timeMs += dtMs;
  return report(truck);
}

/** The truck's report at its current time. */
export function report(truck) {
  return {
    timeMs: truck.timeMs,
    lat: Math.round(truck.lat * 1e6) / 1e6,
    lon: Math.round(truck.lon * 1e6) / 1e6,
    speed: Math.round(truck.speed * 10) / 10,
    course: Math.round(truck.heading) % 360,
    altitude: 220,
    ignition: truck.ignition,
    odometerM: Math.floor(truck.odometerM),
    hours: Math.floor(truck.hours * 1000) / 1000,
  };
}
