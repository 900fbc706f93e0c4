import { type IssueImportRow, tzOffsetMinutes } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { FleetRow } from '../../db/schema.js';
import { breathe } from '../../db/yield.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { openIssue } from '../issues/open.js';
import { changeIssueStatus } from '../issues/status.js';

/**
 * The writer of the issues import (docs/product.md "Issues"): the rows were checked by core
 * `checkImportRows` (objects of the fleet by name, priority, status, a day not after today). Each row is
 * reported as the report dialog reports (`issue.reported`, the object's counters now), by the importing
 * user, at noon of its day in the fleet's zone (now for today before noon); a resolved or closed row is
 * then resolved or closed as the issue page does, with the note "Imported". All rows in one transaction.
 */

export const IMPORTED_NOTE = 'Imported';

/** Noon of a YYYY-MM-DD day in the fleet's zone, Unix seconds, not after `at`. */
function reportedAt(tz: number, day: string | undefined, at: number): number {
  if (day === undefined) return at;
  const noonUtc = Date.parse(`${day}T12:00:00Z`) / 1000;
  return Math.min(at, noonUtc - tzOffsetMinutes(tz, noonUtc) * 60);
}

export async function writeIssues(
  ctx: AppContext,
  actor: Actor,
  fleet: Pick<FleetRow, 'id' | 'tz'>,
  rows: readonly IssueImportRow[],
): Promise<number[]> {
  const at = now();
  return unitOfWork(ctx, async (_trx, work) => {
    const ids: number[] = [];
    for (const [i, r] of rows.entries()) {
      const id = await openIssue(work, ctx, {
        fleetId: fleet.id,
        objectType: r.object_type,
        objectId: r.object_id,
        title: r.title,
        description: r.description,
        priority: r.priority,
        reportedBy: actor.userId,
        reportedAt: reportedAt(fleet.tz, r.reported_date, at),
      });
      if (r.status !== 'open')
        await changeIssueStatus(work, ctx, {
          fleetId: fleet.id,
          issueId: id,
          action: r.status === 'resolved' ? 'resolve' : 'close',
          by: actor.userId,
          note: IMPORTED_NOTE,
        });
      ids.push(id);
      // A turn of the event loop every BATCH_YIELD_EVERY rows, reporting "rows written".
      await breathe(i + 1);
    }
    return ids;
  });
}
