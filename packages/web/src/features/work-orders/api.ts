import type {
  IssueListReply,
  ServiceWire,
  WorkOrderCreateInput,
  WorkOrderUpdateInput,
  WorkOrderWire,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The work-orders screens' reads and writes (core routes/work-orders.ts), refreshed by live events. */

const key = (fid: number) => queryKeys.collection(fid, 'workorder');

/** The list with the URL's filters; the query's raw strings go as the route's query. */
export function useWorkOrders(fid: number | null, query: { status?: string; overdue?: '1' }) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'list', query],
    enabled: fid !== null,
    queryFn: async ({ signal }) => (await client.workOrders.list(fid ?? 0, query, { signal })).work_orders,
  });
}

export function useWorkOrder(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'one', id],
    enabled: fid !== null && id > 0,
    queryFn: ({ signal }) => client.workOrders.get(fid ?? 0, id, { signal }),
  });
}

export function useAssignees(fid: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'assignees'],
    enabled: fid !== null && enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await client.workOrders.assignees(fid ?? 0, { signal })).users,
  });
}

/** The open issues of an object (to link), from the issues API. */
export function useOpenIssues(fid: number | null, objectType: 'u' | 't' | null, objectId: number | null) {
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'issue'), 'open', objectType, objectId],
    enabled: fid !== null && objectType !== null && objectId !== null,
    queryFn: async ({ signal }): Promise<IssueListReply['issues']> =>
      (
        await client.issues.list(
          fid ?? 0,
          { status: 'open', object_type: objectType ?? 'u', object_id: objectId ?? 0 },
          { signal },
        )
      ).issues,
  });
}

/** The open services (Due, overdue, In progress) of an object: "add what is due". */
export function useDueServices(fid: number | null, objectType: 'u' | 't' | null, objectId: number | null) {
  return useQuery({
    queryKey: [...queryKeys.collection(fid ?? 0, 'service'), 'open', objectType, objectId],
    enabled: fid !== null && objectType !== null && objectId !== null,
    queryFn: async ({ signal }): Promise<ServiceWire[]> =>
      (
        await client.services.list(
          fid ?? 0,
          { object_type: objectType ?? 'u', object_id: objectId ?? 0 },
          { signal },
        )
      ).services,
  });
}

function useRefresh(fid: number | null) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: key(fid ?? 0) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'issue') }),
      queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid ?? 0, 'service') }),
    ]);
}

export function useCreateWorkOrder(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: WorkOrderCreateInput) => client.workOrders.create(fid ?? 0, body),
    onSuccess: () => void refresh(),
  });
}

export function useUpdateWorkOrder(fid: number | null, id: number) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: WorkOrderUpdateInput) => client.workOrders.update(fid ?? 0, id, body),
    onSuccess: () => void refresh(),
  });
}

export type WorkOrderActionName = 'start' | 'hold' | 'cancel' | 'complete';

export function useWorkOrderAction(fid: number | null, id: number) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: ({
      action,
      meter,
    }: {
      action: WorkOrderActionName;
      meter?: { mileage?: number | null; engine_hours?: number | null };
    }): Promise<WorkOrderWire> =>
      action === 'complete'
        ? client.workOrders.complete(fid ?? 0, id, meter ?? {})
        : client.workOrders[action](fid ?? 0, id, {}),
    onSuccess: () => void refresh(),
  });
}

export function useDeleteWorkOrder(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (id: number) => client.workOrders.remove(fid ?? 0, id),
    onSuccess: () => void refresh(),
  });
}
