import type { FleetTransferDocument, FleetTransferReply } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { FleetRow } from '../../db/schema.js';
import { invalidInput } from '../../http/errors.js';
import { documentIssues } from './checks.js';
import type { DeviceChoice } from './import-devices.js';
import { importHistory } from './import-history.js';
import { importMeter } from './import-meter.js';
import {
  importAssignments,
  importFields,
  importIntervals,
  importLibrary,
  importPersons,
  importUnits,
  type UnitTarget,
} from './import-objects.js';
import { importSetups } from './import-setups.js';
import { importIssues } from './issues.js';
import { type Db, emptyPublished, type Published, type Run, zeroCounts } from './run.js';
import { importWorkshop } from './workshop-import.js';

export type { UnitTarget } from './import-objects.js';
export { LIVE_EVENTS_MAX, publishImport } from './publish.js';

/**
 * The import of a fleet export document into a fleet, in one transaction: all of it or
 * nothing (DESIGN §5). Every id is remapped. What already exists in the target fleet is reused, never
 * changed (import-objects.ts): units, drivers and trailers by exact name, intervals, custom fields,
 * library items, assignments and notification set-ups by their keys. Services, the archive, fuel
 * fillings (import-history.ts) and the meter history (import-meter.ts) are added; the notification
 * set-ups come without their secrets (import-setups.ts). After commit the live events and the status
 * engine (publish.ts).
 */

export interface ImportOptions {
  /** Per source unit id: an existing unit of the fleet or a new one (LubeLogger vehicle mapping). */
  unitTargets?: Map<number, UnitTarget>;
  /** Field prefix of issues (`body.document.`). */
  prefix?: string;
  /** The created units' device identifiers (`POST …/transfer`); placeholders without. */
  devices?: DeviceChoice;
}

/** Imports `doc` into `fleet` inside `trx`; returns the reply, the run and what to publish after commit. */
export async function importInto(
  ctx: AppContext,
  trx: Db,
  fleet: FleetRow,
  actor: Actor,
  doc: FleetTransferDocument,
  options: ImportOptions = {},
): Promise<{ reply: FleetTransferReply; published: Published; run: Run }> {
  const issues = documentIssues(doc, options.prefix ?? 'body.document.');
  if (issues.length) throw invalidInput(issues.slice(0, 200));
  const run: Run = {
    ctx,
    trx,
    fleet,
    actor,
    t: now(),
    created: zeroCounts(),
    matched: zeroCounts(),
    skipped: zeroCounts(),
    published: emptyPublished(),
    maps: {
      fields: new Map(),
      units: new Map(),
      persons: { d: new Map(), t: new Map() },
      intervals: new Map(),
      assignments: new Map(),
      services: new Map(),
      issues: new Map(),
    },
    existingUnits: new Set(),
  };
  await importFields(run, doc);
  await importLibrary(run, doc);
  await importUnits(run, doc, options.unitTargets, options.devices);
  await importPersons(run, doc);
  await importIntervals(run, doc);
  const matchedAssignments = await importAssignments(run, doc);
  await importHistory(run, doc, matchedAssignments);
  await importMeter(run, doc);
  await importIssues(run, doc); // version 5 (issues.ts)
  await importWorkshop(run, doc); // version 6 (workshop-import.ts)
  const secrets = await importSetups(run, doc);

  const pairs = (m: Map<number, number>) => [...m.entries()] as [number, number][];
  return {
    reply: {
      created: run.created,
      matched: run.matched,
      skipped: run.skipped,
      ids: {
        units: pairs(run.maps.units),
        drivers: pairs(run.maps.persons.d),
        trailers: pairs(run.maps.persons.t),
        intervals: pairs(run.maps.intervals),
      },
      secrets,
    },
    published: run.published,
    run,
  };
}
