import type { WorkOrderCreateInput } from '@fleetkeep/core';

/** The create dialog's draft: the object as `u:12` / `t:3`, the assignee id as text (the select's value). */
export interface CreateDraft {
  object: string | null;
  title: string;
  assignee: string | null;
  issues: number[];
  services: number[];
}

export function objectOf(value: string | null): { type: 'u' | 't'; id: number } | null {
  const m = /^([ut]):(\d+)$/.exec(value ?? '');
  return m ? { type: m[1] as 'u' | 't', id: Number(m[2]) } : null;
}

/** The POST body of a draft (an unchosen object sends id 0, which the contract refuses). */
export function createBody(draft: CreateDraft): WorkOrderCreateInput {
  const object = objectOf(draft.object);
  return {
    object_type: object?.type ?? 'u',
    object_id: object?.id ?? 0,
    title: draft.title.trim(),
    ...(draft.assignee && { assignee_id: Number(draft.assignee) }),
    issue_ids: draft.issues,
    service_ids: draft.services,
  };
}
