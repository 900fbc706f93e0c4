import type {
  ComponentCreateInput,
  ComponentDetailWire,
  ComponentDismountInput,
  ComponentMountInput,
  ComponentTreadInput,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** The components screens' reads and writes (core routes/components.ts); a write refreshes them all. */

const key = (fid: number) => [...queryKeys.fleet(fid), 'components'] as const;

export interface ComponentFilter {
  kind?: string;
  state?: 'stock' | 'mounted' | 'retired';
  unit_id?: number;
}

export function useComponents(fid: number | null, filter: ComponentFilter) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'list', filter],
    enabled: fid !== null,
    queryFn: async ({ signal }) => (await client.components.list(fid ?? 0, filter, { signal })).components,
  });
}

export function useComponent(fid: number | null, id: number) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'one', id],
    enabled: fid !== null && id > 0,
    queryFn: ({ signal }) => client.components.get(fid ?? 0, id, { signal }),
  });
}

export function useKinds(fid: number | null) {
  return useQuery({
    queryKey: [...key(fid ?? 0), 'kinds'],
    enabled: fid !== null,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const reply = await client.components.kinds(fid ?? 0, { signal });
      return [...reply.builtin, ...reply.kinds.map((k) => k.name)];
    },
  });
}

function useRefresh(fid: number | null) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key(fid ?? 0) });
}

export function useCreateComponent(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (body: ComponentCreateInput) => client.components.create(fid ?? 0, body),
    onSuccess: () => void refresh(),
  });
}

export function useAddKind(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (name: string) => client.components.addKind(fid ?? 0, { name }),
    onSuccess: () => void refresh(),
  });
}

export type ComponentActionCall =
  | { action: 'mount'; id: number; body: ComponentMountInput }
  | { action: 'dismount' | 'retire'; id: number; body: ComponentDismountInput }
  | { action: 'tread'; id: number; body: ComponentTreadInput };

export function useComponentAction(fid: number | null) {
  const refresh = useRefresh(fid);
  return useMutation({
    mutationFn: (call: ComponentActionCall): Promise<ComponentDetailWire> => {
      const f = fid ?? 0;
      switch (call.action) {
        case 'mount':
          return client.components.mount(f, call.id, call.body);
        case 'tread':
          return client.components.tread(f, call.id, call.body);
        case 'dismount':
          return client.components.dismount(f, call.id, call.body);
        default:
          return client.components.retire(f, call.id, call.body);
      }
    },
    onSuccess: () => void refresh(),
  });
}
