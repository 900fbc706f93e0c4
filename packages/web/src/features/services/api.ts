import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * The services API of spec §7 "Services" for the web client: wire types and TanStack Query hooks.
 * Every key lives under `queryKeys.collection(fid, 'service')`, so live events refresh them all.
 * Shared by the list (`list/`), the close screen (`close/`) and the editor (`editor/`).
 */

export type ObjectType = 'u' | 'd' | 't';

/** A line item of a service: name, kind (1 labour, 2 part), quantity, unit cost (spec §3). */
export interface ServiceLine {
  n: string;
  t: number;
  q: number;
  c: number;
}

/**
 * A service as the server sends it (server `maintenance-wire.ts` serviceToWire; spec §3 "Service").
 * Distances are km and engine hours hours; dates are Unix seconds (start of the fleet-zone day);
 * money is a number with at most 3 decimals.
 */
export interface Service {
  id: number;
  /** Object id. */
  uid: number;
  /** Object type: unit, driver, trailer. */
  t: ObjectType;
  /** Status flags (spec §4; core `ServiceFlag`). */
  f: number;
  n: string;
  description: string;
  /** Creator user id. */
  cid: number | null;
  /** Interval id, null for a one-off service. */
  ivid: number | null;
  /** Assignment id. */
  eid: number | null;
  /** Created (Unix seconds). */
  tm: number;
  updated: number;
  start_date: number | null;
  end_date: number | null;
  /** Planned date / term of completion. */
  limit_date: number | null;
  /** "Expected on": forecast from the average daily use. */
  forecast_date: number | null;
  limit_mileage: number | null;
  limit_engine_hours: number | null;
  last_date: number | null;
  last_mileage: number | null;
  last_engine_hours: number | null;
  /** The object's current counters (km, h); null for drivers/trailers or when unknown. */
  current_mileage: number | null;
  current_engine_hours: number | null;
  mileage: number | null;
  engine_hours: number | null;
  total_cost: number;
  manual_cost: number | null;
  notify_days: number | null;
  li: ServiceLine[];
  /** Attachment count. */
  ats: number;
  /** The object has a service in progress (1) or not (0). */
  ins: number;
  cf: { id: number; v: string }[];
}

/** Status values the batch status call takes: In progress, Closed, Rejected (spec §4). */
export type BatchStatus = 2 | 8 | 16;

/** A date on the wire: Unix seconds or YYYY-MM-DD (spec §5). */
export type DateIn = number | string;

/** One row of PUT .../services/batch (server `batchUpdateRow`); km and hours. */
export interface ServiceUpdateRow {
  id: number;
  f?: 1 | 2 | 8 | 16;
  end_date?: DateIn | null;
  start_date?: DateIn | null;
  mileage?: number | null;
  engine_hours?: number | null;
  [field: string]: unknown;
}

const base = (fid: number) => `/api/fleets/${fid}/services`;

/** Sub-keys of the service collection. */
export const serviceKeys = {
  all: (fid: number) => queryKeys.collection(fid, 'service'),
  open: (fid: number, object?: { t: ObjectType; id: number }) =>
    [...queryKeys.collection(fid, 'service'), 'open', object?.t ?? null, object?.id ?? null] as const,
  archived: (fid: number, from: string, to: string) =>
    [...queryKeys.collection(fid, 'service'), 'archived', from, to] as const,
  one: (fid: number, id: number) => [...queryKeys.collection(fid, 'service'), 'one', id] as const,
};

/** GET .../services: open services (Due incl. overdue, In progress), optionally of one object. */
export function useOpenServices(fid: number | null, object?: { t: ObjectType; id: number }) {
  return useQuery({
    queryKey: serviceKeys.open(fid ?? 0, object),
    queryFn: async ({ signal }) => {
      const q = object ? `?object_type=${object.t}&object_id=${object.id}` : '';
      return (await api<{ services: Service[] }>(`${base(fid ?? 0)}${q}`, { signal })).services;
    },
    enabled: fid !== null,
  });
}

/** GET .../services/archived?from&to: closed and rejected services by end date (YYYY-MM-DD, ≤ 366 days). */
export function useArchivedServices(fid: number | null, from: string, to: string) {
  return useQuery({
    queryKey: serviceKeys.archived(fid ?? 0, from, to),
    queryFn: async ({ signal }) =>
      (
        await api<{ services: Service[] }>(
          `${base(fid ?? 0)}/archived?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
          { signal },
        )
      ).services,
    enabled: fid !== null && from !== '' && to !== '',
  });
}

/** GET .../services/{id}: one service, any status. */
export function useService(fid: number | null, id: number | null) {
  return useQuery({
    queryKey: serviceKeys.one(fid ?? 0, id ?? 0),
    queryFn: async ({ signal }) => api<Service>(`${base(fid ?? 0)}/${id}`, { signal }),
    enabled: fid !== null && id !== null,
  });
}

/** Refreshes every service query of the fleet after a change. */
function useInvalidateServices(fid: number | null) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: serviceKeys.all(fid ?? 0) });
}

/**
 * POST .../services/status/batch: In progress (2), Close (8, one end date, each object's current
 * counters) or Reject (16) the given services. Atomic: a refusal (409 with ids) changes nothing.
 */
export function useBatchStatus(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (input: { f: BatchStatus; ids: number[]; end_date?: DateIn }) =>
      api<{ services: Service[] }>(`${base(fid ?? 0)}/status/batch`, {
        method: 'POST',
        body: {
          f: input.f,
          services: input.ids,
          ...(input.end_date !== undefined && { end_date: input.end_date }),
        },
      }),
    onSettled: invalidate,
  });
}

/** PUT .../services/batch: update many open services at once (atomic, per-row errors with `row`). */
export function useBatchUpdate(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (rows: ServiceUpdateRow[]) =>
      api<{ services: Service[] }>(`${base(fid ?? 0)}/batch`, { method: 'PUT', body: { services: rows } }),
    onSettled: invalidate,
  });
}

/** DELETE .../services/archived/batch: delete archived services (archiveDelete, atomic). */
export function useDeleteArchived(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (ids: number[]) =>
      api<{ deleted: number }>(`${base(fid ?? 0)}/archived/batch`, {
        method: 'DELETE',
        body: { services: ids },
      }),
    onSettled: invalidate,
  });
}

// Editor calls (spec §7 "Services"): create, batch create, update, archive corrections, attachments.

/** POST .../services: one service, created as Due, In progress or Closed (spec §4). */
export function useCreateService(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (body: object) => api<Service>(base(fid ?? 0), { method: 'POST', body }),
    onSettled: invalidate,
  });
}

/** POST .../services/batch: one service per object, atomic (all or none, per-row errors with `row`). */
export function useCreateServices(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (services: object[]) =>
      api<{ services: Service[] }>(`${base(fid ?? 0)}/batch`, { method: 'POST', body: { services } }),
    onSettled: invalidate,
  });
}

/** PUT .../services/{id}: an open service; status changes follow the server's transition rules. */
export function useUpdateService(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: object }) =>
      api<Service>(`${base(fid ?? 0)}/${id}`, { method: 'PUT', body }),
    onSettled: invalidate,
  });
}

/** PUT .../services/archived/{id}: corrections of a closed or rejected service (archiveEdit). */
export function useUpdateArchived(fid: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: object }) =>
      api<Service>(`${base(fid ?? 0)}/archived/${id}`, { method: 'PUT', body }),
    onSettled: invalidate,
  });
}

/** A stored file of a service (server `attachments.ts`). */
export interface ServiceAttachment {
  id: number;
  name: string;
  size: number;
  content_type: string;
  /** Unix seconds. */
  created: number;
}

export const attachmentsKey = (fid: number, id: number) =>
  [...serviceKeys.one(fid, id), 'attachments'] as const;

/** The path of a service's attachments (downloads need the session header: fetch, not a plain link). */
export const attachmentsPath = (fid: number, id: number) => `${base(fid)}/${id}/attachments`;

/** GET .../services/{id}/attachments. */
export function useServiceAttachments(fid: number | null, id: number | null) {
  return useQuery({
    queryKey: attachmentsKey(fid ?? 0, id ?? 0),
    queryFn: async ({ signal }) =>
      (await api<{ attachments: ServiceAttachment[] }>(attachmentsPath(fid ?? 0, id ?? 0), { signal }))
        .attachments,
    enabled: fid !== null && id !== null,
  });
}

/** DELETE .../services/{id}/attachments/{aid}. */
export function useDeleteAttachment(fid: number | null, id: number | null) {
  const invalidate = useInvalidateServices(fid);
  return useMutation({
    mutationFn: (aid: number) => api(`${attachmentsPath(fid ?? 0, id ?? 0)}/${aid}`, { method: 'DELETE' }),
    onSettled: invalidate,
  });
}
