import type { CaseEnv, MatrixUser, Outcome, RouteCase } from './routes.js';

/**
 * The permission-matrix cases every attachments collection shares (spec §5 attachments; spec §7 services
 * and fuel fillings): list, upload, download, delete under `{base}/{id}/attachments`, for an owner the
 * case seeds. Reading needs the owner's view right, uploading and deleting its manage right.
 */

const USERS: MatrixUser[] = ['root', 'admin', 'manager', 'mechanic', 'viewer', 'outsider'];

/** Each matrix user's expected outcome: `allowed` for those in `ok`, refused for the rest. */
export const outcomes = (ok: MatrixUser[], allowed: Outcome = 'ok') =>
  Object.fromEntries(USERS.map((u) => [u, ok.includes(u) ? allowed : 'denied'])) as Record<
    MatrixUser,
    Outcome
  >;

export interface AttachmentOwner {
  /** Route prefix as the catalogue names it, e.g. `/api/fleets/:fid/services`. */
  route: string;
  /** The collection's URL for the case's fleet. */
  base: (env: CaseEnv) => string;
  /** `attachments.owner_type` of this owner. */
  ownerType: string;
  seed: (env: CaseEnv) => Promise<number>;
  restore: (env: CaseEnv) => Promise<void>;
  readers: MatrixUser[];
  managers: MatrixUser[];
}

/** An attachment of `ownerId`, written directly. */
async function seedAttachment(env: CaseEnv, ownerType: string, ownerId: number): Promise<number> {
  const row = await env.t.server.ctx.db.kysely
    .insertInto('attachments')
    .values({
      fleet_id: env.fx.fleetId,
      owner_type: ownerType,
      owner_id: ownerId,
      name: 'matrix.txt',
      content_type: 'text/plain',
      size: 2,
      data: Buffer.from('ok'),
      created_at: 0,
      creator_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function attachmentCases(owner: AttachmentOwner): RouteCase[] {
  const { route, base, seed, restore } = owner;
  const withAttachment = async (env: CaseEnv) => {
    const id = await seed(env);
    return `${base(env)}/${id}/attachments/${await seedAttachment(env, owner.ownerType, id)}`;
  };
  return [
    {
      route: `GET ${route}/:id/attachments`,
      build: async (env) => ({ method: 'GET', url: `${base(env)}/${await seed(env)}/attachments` }),
      expect: outcomes(owner.readers),
      restore,
    },
    {
      route: `POST ${route}/:id/attachments`,
      label: 'a JSON body: the check comes first, then "not a file list" (error 4)',
      build: async (env) => ({
        method: 'POST',
        url: `${base(env)}/${await seed(env)}/attachments`,
        body: { files: [] },
      }),
      expect: outcomes(owner.managers, { status: 400, error: 4 }),
      restore,
    },
    {
      route: `GET ${route}/:id/attachments/:aid`,
      build: async (env) => ({ method: 'GET', url: await withAttachment(env) }),
      expect: outcomes(owner.readers),
      restore,
    },
    {
      route: `DELETE ${route}/:id/attachments/:aid`,
      build: async (env) => ({ method: 'DELETE', url: await withAttachment(env) }),
      expect: outcomes(owner.managers),
      restore,
    },
  ];
}
