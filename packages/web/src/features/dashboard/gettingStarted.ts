import type { SessionAuthReply } from '@fleetkeep/core';

/**
 * The getting-started checklist of an empty fleet (docs/product.md "Getting started"): four steps,
 * each ticked from data the dashboard already reads, and the addresses a tracker is set up with
 * (DESIGN §3: the OsmAnd port, the OsmAnd path on the main port, the Teltonika TCP port).
 */

export const START_STEPS = ['unit', 'tracker', 'interval', 'colleague'] as const;
export type StartStep = (typeof START_STEPS)[number];

export interface StartFacts {
  /** The fleet's units: the tracker step is done once any of them has sent a message or a position. */
  units: readonly { lmsg: unknown; pos: unknown }[];
  intervals: number;
  /** The fleet's access list; null while unknown (then the step is not ticked). */
  members: readonly { id: number }[] | null;
  /** The user looking. */
  me: number;
}

export interface StepState {
  id: StartStep;
  done: boolean;
}

/**
 * The steps in order, each done or not: a unit exists; a unit has a last message or position (so a
 * tracker reached the server); an interval exists; the access list names someone besides the user.
 */
export function startSteps(facts: StartFacts): StepState[] {
  const done: Record<StartStep, boolean> = {
    unit: facts.units.length > 0,
    tracker: facts.units.some((u) => u.lmsg != null || u.pos != null),
    interval: facts.intervals > 0,
    colleague: (facts.members ?? []).some((m) => m.id !== facts.me),
  };
  return START_STEPS.map((id) => ({ id, done: done[id] }));
}

/** The checklist stays until every step is done (docs/product.md "Getting started"). */
export function showChecklist(steps: readonly StepState[]): boolean {
  return steps.some((s) => !s.done);
}

export type TrackerConfig = SessionAuthReply['config']['trackers'];

export interface TrackerAddresses {
  /** The OsmAnd port as a server URL for Traccar Client or OsmAnd; null when the port is off. */
  osmandPort: string | null;
  /** The OsmAnd protocol over HTTP on the main port (always served). */
  osmandHttp: string;
  /** Host and port for the Teltonika configurator (TCP, Codec 8); null when the port is off. */
  teltonika: { host: string; port: number } | null;
}

/** The addresses of the public URL's host; a URL that does not parse is used as the host itself. */
export function trackerAddresses(config: TrackerConfig): TrackerAddresses {
  const base = config.url.replace(/\/+$/, '');
  let host = base;
  try {
    // The hostname of an IPv6 address comes in brackets; the configurator takes it without.
    host = new URL(base).hostname.replace(/^\[(.*)\]$/, '$1') || base;
  } catch {
    // not a URL: keep the text as the host
  }
  // An IPv6 address goes in brackets in a URL.
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    osmandPort: config.osmand === null ? null : `http://${urlHost}:${config.osmand}`,
    osmandHttp: `${base}/api/ingest/osmand`,
    teltonika: config.teltonika === null ? null : { host, port: config.teltonika },
  };
}
