import {
  ACTIVE_ISSUE_STATUSES,
  DomainEventType,
  type FaultCodeOpenedEvent,
  isCriticalFaultCode,
} from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';
import type { DomainEventConsumer } from '../../events/consumers.js';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { parseCritical } from '../fault-codes/service.js';
import { openIssue } from './open.js';

/**
 * A critical fault code opens an issue (issue 28 §4, docs/product.md "Issues"): when a unit reports a
 * code its fleet counts as critical (new, or back after it was cleared), an issue "DTC <code>" of
 * priority critical is opened on the unit, reported by nobody at the reading's time, with the unit's
 * counters. Not twice: while an issue of that title is open or in a work order on the unit, nothing more
 * is opened. An outbox consumer, so that the reading's commit stays the pipeline's only write; it starts
 * with the events published after it first ran (no issues for codes of the past).
 */

export const FAULT_ISSUES_CONSUMER = 'issues.faultCodes';

/** The title of the issue a critical fault code opens. */
export const faultIssueTitle = (code: string) => `DTC ${code}`;

export function faultIssueConsumer(ctx: AppContext): DomainEventConsumer {
  return {
    name: FAULT_ISSUES_CONSUMER,
    types: [DomainEventType.faultCodeOpened],
    async handle(trx, events) {
      const work = new UnitOfWork(trx as Transaction<Database>);
      const critical = new Map<number, string[]>();
      for (const event of events as FaultCodeOpenedEvent[]) {
        if (!critical.has(event.fid)) {
          const fleet = await trx
            .selectFrom('fleets')
            .select('critical_fault_codes')
            .where('id', '=', event.fid)
            .executeTakeFirst();
          critical.set(event.fid, fleet ? parseCritical(fleet.critical_fault_codes) : []);
        }
        if (!isCriticalFaultCode(event.code, critical.get(event.fid) ?? [])) continue;
        // The unit gone, or moved to another fleet, before the event was handled.
        const unit = await trx
          .selectFrom('units')
          .select('id')
          .where('id', '=', event.unitId)
          .where('fleet_id', '=', event.fid)
          .executeTakeFirst();
        if (!unit) continue;
        const title = faultIssueTitle(event.code);
        const open = await trx
          .selectFrom('issues')
          .select('id')
          .where('fleet_id', '=', event.fid)
          .where('object_type', '=', 'u')
          .where('object_id', '=', event.unitId)
          .where('title', '=', title)
          .where('status', 'in', [...ACTIVE_ISSUE_STATUSES])
          .executeTakeFirst();
        if (open) continue;
        await openIssue(work, ctx, {
          fleetId: event.fid,
          objectType: 'u',
          objectId: event.unitId,
          title,
          priority: 'critical',
          reportedBy: null,
          reportedAt: Math.min(event.at, Math.floor(Date.now() / 1000)),
        });
      }
      return () => work.committed(ctx);
    },
  };
}
