import type { IssuePriority } from '@fleetkeep/core';
import { type AppContext, DAY, now } from '../context.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { openIssue } from '../modules/issues/open.js';
import { changeIssueStatus } from '../modules/issues/status.js';
import type { DemoIds } from './seed.js';

/** The demo's issues: a few defects of the first units and a trailer, open, resolved and closed. */
const DEMO_ISSUES: {
  unit: number | 'trailer';
  title: string;
  description: string;
  priority: IssuePriority;
  daysAgo: number;
  by: 'viewer' | 'mechanic' | 'manager';
  end?: { action: 'resolve' | 'close'; note: string };
}[] = [
  {
    unit: 0,
    title: 'Brake pedal feels soft',
    description: 'Longer pedal travel than usual, mostly on the first stops of the morning.',
    priority: 'critical',
    daysAgo: 1,
    by: 'viewer',
  },
  {
    unit: 1,
    title: 'Left mirror cracked',
    description: 'Crack across the lower half of the main mirror.',
    priority: 'medium',
    daysAgo: 3,
    by: 'viewer',
  },
  {
    unit: 2,
    title: 'Oil drops under the engine',
    description: 'A few drops on the yard floor after a night parked.',
    priority: 'high',
    daysAgo: 6,
    by: 'mechanic',
  },
  {
    unit: 3,
    title: 'Wiper leaves streaks',
    description: 'Driver side wiper blade.',
    priority: 'low',
    daysAgo: 12,
    by: 'viewer',
    end: { action: 'resolve', note: 'Blade replaced.' },
  },
  {
    unit: 'trailer',
    title: 'Rear light flickers',
    description: 'Right rear position light flickers over bumps.',
    priority: 'medium',
    daysAgo: 9,
    by: 'viewer',
    end: { action: 'close', note: 'Loose plug on the coupling, pushed home; no defect of the light.' },
  },
];

export async function seedDemoIssues(ctx: AppContext, ids: DemoIds): Promise<void> {
  const db = ctx.db.kysely;
  const units = await db
    .selectFrom('units')
    .select('id')
    .where('fleet_id', '=', ids.fleetId)
    .orderBy('id')
    .limit(4)
    .execute();
  const trailer = await db
    .selectFrom('trailers')
    .select('id')
    .where('fleet_id', '=', ids.fleetId)
    .orderBy('id')
    .executeTakeFirst();
  const t = now();
  await unitOfWork(ctx, async (_trx, work) => {
    for (const issue of DEMO_ISSUES) {
      const objectId = issue.unit === 'trailer' ? trailer?.id : units[issue.unit]?.id;
      if (objectId === undefined) continue;
      const issueId = await openIssue(work, ctx, {
        fleetId: ids.fleetId,
        objectType: issue.unit === 'trailer' ? 't' : 'u',
        objectId,
        title: issue.title,
        description: issue.description,
        priority: issue.priority,
        reportedBy: ids.users[issue.by] ?? null,
        reportedAt: t - issue.daysAgo * DAY,
      });
      if (issue.end)
        await changeIssueStatus(work, ctx, {
          fleetId: ids.fleetId,
          issueId,
          action: issue.end.action,
          by: ids.users.mechanic ?? null,
          note: issue.end.note,
        });
    }
  });
}
