import type { Generated, Kysely, Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';

/**
 * The tables of migration 017 (report mails), typed for this module. They are kept here rather than in
 * db/schema.ts so that the module owns its schema; `rmDb` is the same Kysely instance with them added.
 */
export interface ReportMailTable {
  id: Generated<number>;
  fleet_id: number;
  owner_id: number;
  name: string;
  enabled: number;
  /** JSON array of addresses. */
  recipients: string;
  report: string;
  grouping: string;
  ot: string | null;
  /** JSON array of object ids. */
  ids: string;
  format: string;
  every: string;
  weekday: number;
  /** '1' … '28' or 'last'. */
  monthday: string;
  hour: number;
  lang: string;
  next_due: number | null;
  last_sent: number | null;
  last_ok: number | null;
  last_result: string | null;
  created_at: number;
  updated_at: number;
}

export interface ReportMailSendTable {
  id: Generated<number>;
  fleet_id: number;
  mail_id: number;
  /** The scheduled slot; null for "send now". */
  slot: number | null;
  /** 'sending' | 'sent' | 'failed' | 'interrupted'. */
  state: string;
  started_at: number;
  finished_at: number | null;
  result: string | null;
}

export interface ReportMailTables {
  report_mails: ReportMailTable;
  report_mail_sends: ReportMailSendTable;
}

export type ReportMailDb = Kysely<Database & ReportMailTables>;
export type ReportMailRow = Selectable<ReportMailTable>;

/** The database with the report-mail tables typed. */
export const rmDb = (ctx: AppContext): ReportMailDb => ctx.db.kysely as unknown as ReportMailDb;
/** A transaction (events/unit-of-work.ts) with the module's tables added, as `rmDb`. */
export const rmTrx = (trx: Kysely<Database>): ReportMailDb => trx as unknown as ReportMailDb;
