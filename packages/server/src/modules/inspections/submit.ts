import {
  checkResults,
  DomainEventType,
  defectsOf,
  type InspectionResult,
  type InspectionSubmitBody,
  itemReportValue,
  LANGUAGES,
  type Language,
  needsAcknowledgement,
  priorityOfSeverity,
  type RecordRefusal,
  worstSeverity,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { requireReach } from '../../auth/reach.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { translator } from '../../i18n/translator.js';
import { openIssue } from '../issues/open.js';
import { ensureBuiltinForm, loadForm } from './forms.js';
import { storeImage } from './images.js';
import { parseItems, type StoredResult } from './mappers.js';
import { readInspection } from './read.js';

/**
 * Submitting an inspection (docs/product.md "Inspections"): a form for a unit or trailer, the meter,
 * each item's result, images and the drawn signature, all written in one unit of work with the
 * defects (each failed pass/fail item, its severity) and the acknowledgement of the object's last
 * report. Each defect opens an issue in the same unit of work (`inspection_defects.issue_id`), its
 * priority from the severity (core SEVERITY_PRIORITY), titled with the item's label in the submitter's
 * language.
 */

export const ACK_REQUIRED = 'Acknowledge the last inspection report of this object first';
export const ACK_NOT_LAST = 'Not the last inspection report of this object';

const OBJECTS = { u: ['units', 'Unit not found'], t: ['trailers', 'Trailer not found'] } as const;

async function requireObject(db: Kysely<Database>, fleetId: number, type: 'u' | 't', id: number) {
  const [table, missing] = OBJECTS[type];
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound(missing);
}

/** The object's last submitted inspection (the report the next one acknowledges). */
export async function lastReport(db: Kysely<Database>, fleetId: number, type: string, id: number) {
  return db
    .selectFrom('inspections')
    .select(['id', 'defects', 'ack_at'])
    .where('fleet_id', '=', fleetId)
    .where('object_type', '=', type)
    .where('object_id', '=', id)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function submitInspection(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: InspectionSubmitBody,
) {
  const access = await requireFleet(ctx, actor, fleetId, 'inspection.submit');
  await requireReach(ctx, actor, access, body.ot === 'u' ? 'units' : 'trailers', body.oi);
  const db = ctx.db.kysely;
  await ensureBuiltinForm(db, fleetId);
  const form = await loadForm(db, fleetId, body.fm);
  await requireObject(db, fleetId, body.ot, body.oi);
  const items = parseItems(form.items);
  const results: InspectionResult[] = body.res.map((r) => ({ ...r, img: !!r.img }));
  const problems = checkResults(items, results);
  if (problems.length)
    throw invalidInput(
      problems.map((p) => ({
        field: p.row === null ? `body.res` : `body.res.${p.row}`,
        message: `Item ${p.item + 1}: ${p.reason}`,
      })),
    );

  const last = await lastReport(db, fleetId, body.ot, body.oi);
  const ack = body.ack ?? null;
  if (ack !== null && ack !== last?.id)
    throw conflict(ACK_NOT_LAST, [{ id: ack, field: 'body.ack', reason: ACK_NOT_LAST }]);
  if (last && needsAcknowledgement({ nd: last.defects, ak: last.ack_at }) && ack !== last.id)
    throw conflict(ACK_REQUIRED, [
      { id: last.id, field: 'body.ack', reason: ACK_REQUIRED } satisfies RecordRefusal,
    ]);

  const defects = defectsOf(items, results);
  const t = now();
  const id = await unitOfWork(ctx, async (trx, uow) => {
    const row = await trx
      .insertInto('inspections')
      .values({
        fleet_id: fleetId,
        form_id: form.id,
        form_name: form.name,
        builtin: form.builtin,
        object_type: body.ot,
        object_id: body.oi,
        mileage: body.mi ?? null,
        engine_hours: body.eh ?? null,
        note: body.note ?? '',
        items: form.items,
        results: '[]',
        signature_id: null,
        submitted_at: t,
        submitter_id: actor.userId,
        defects: defects.length,
        ack_by: null,
        ack_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const signature = await storeImage(trx, fleetId, row.id, 'signature', body.sig, actor.userId, t);
    const stored: StoredResult[] = [];
    for (const r of [...body.res].sort((a, b) => a.i - b.i)) {
      const img = r.img
        ? await storeImage(trx, fleetId, row.id, `item-${r.i + 1}`, r.img, actor.userId, t)
        : null;
      stored.push({
        i: r.i,
        ok: r.ok ?? null,
        sev: r.ok === false ? (defects.find((d) => d.i === r.i)?.severity ?? null) : null,
        v: r.v ?? null,
        tx: r.tx ? r.tx : null,
        img,
      });
    }
    await trx
      .updateTable('inspections')
      .set({ results: JSON.stringify(stored), signature_id: signature })
      .where('id', '=', row.id)
      .execute();
    const issueIds: (number | null)[] = [];
    if (defects.length) {
      const words = translator(await languageOf(trx, actor.userId));
      for (const d of defects) {
        const item = items[d.i];
        if (!item) {
          issueIds.push(null);
          continue;
        }
        const note = body.res.find((r) => r.i === d.i)?.tx;
        issueIds.push(
          await openIssue(uow, ctx, {
            fleetId,
            objectType: body.ot,
            objectId: body.oi,
            title: item.key ? words(item.key) : item.l,
            description: note ?? '',
            priority: priorityOfSeverity(d.severity),
            reportedBy: actor.userId,
            reportedAt: t,
            inspectionId: row.id,
            inspectionItem: itemReportValue(item),
          }),
        );
      }
    }
    if (defects.length)
      await trx
        .insertInto('inspection_defects')
        .values(
          defects.map((d, k) => ({
            fleet_id: fleetId,
            inspection_id: row.id,
            item: d.i,
            severity: d.severity,
            issue_id: issueIds[k] ?? null,
            cert: null,
            cert_note: '',
            cert_by: null,
            cert_at: null,
            cert_signature_id: null,
          })),
        )
        .execute();
    const subject = { inspectionId: row.id, objectType: body.ot, objectId: body.oi };
    const events = [];
    if (last && ack === last.id && last.ack_at === null) {
      await trx
        .updateTable('inspections')
        .set({ ack_by: actor.userId, ack_at: t })
        .where('id', '=', last.id)
        .execute();
      events.push({
        type: DomainEventType.inspectionAcknowledged,
        fid: fleetId,
        at: t,
        by: actor.userId,
        inspectionId: last.id,
        objectType: body.ot,
        objectId: body.oi,
      } as const);
    }
    await uow.record([
      ...events,
      {
        type: DomainEventType.inspectionSubmitted,
        fid: fleetId,
        at: t,
        by: actor.userId,
        ...subject,
        formName: form.name,
        defects: defects.length,
        worst: worstSeverity(defects.map((d) => d.severity)),
      },
    ]);
    uow.emit({ t: 'c', s: 'inspection', fid: fleetId, d: { id: row.id }, on: { t: body.ot, id: body.oi } });
    return row.id;
  });
  return readInspection(db, fleetId, id);
}

/** The submitter's language (user settings), for the titles of the issues the defects open. */
async function languageOf(db: Kysely<Database>, userId: number): Promise<Language> {
  const row = await db.selectFrom('users').select('settings').where('id', '=', userId).executeTakeFirst();
  const lang = (JSON.parse(row?.settings || '{}') as { lang?: unknown }).lang;
  return LANGUAGES.includes(lang as Language) ? (lang as Language) : 'en';
}
