import type {
  AdminAccountCreateBody,
  AdminAccountsReply,
  AdminAccountWire,
  AdminUserCreateBody,
  AdminUsersReply,
  AdminUserUpdateBody,
} from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Server data of the activation screen (spec §7 "Admin"; issue 9 "Accounts and activation", "Users").
 * The keys live under the app's root key (lib/queryKeys.ts), so a live event that makes everything
 * stale reaches them too.
 */
export const activationKeys = {
  all: () => [...queryKeys.all, 'admin', 'accounts'] as const,
  users: (accountId: number) => [...activationKeys.all(), accountId, 'users'] as const,
};

export function useAccounts() {
  return useQuery({
    queryKey: activationKeys.all(),
    queryFn: ({ signal }) => api<AdminAccountsReply>('/api/admin/accounts', { signal }),
  });
}

export function useUsers(accountId: number | null) {
  return useQuery({
    queryKey: activationKeys.users(accountId ?? 0),
    queryFn: async ({ signal }) =>
      (await api<AdminUsersReply>(`/api/admin/accounts/${accountId}/users`, { signal })).users,
    enabled: accountId !== null,
  });
}

/** A mutation that refreshes the accounts and their users when it settles. */
function useAdminMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: activationKeys.all() }),
  });
}

export const useCreateAccount = () =>
  useAdminMutation((body: AdminAccountCreateBody) =>
    api<AdminAccountWire>('/api/admin/accounts', { method: 'POST', body }),
  );

/** Activates (s 1), suspends (s 0) or renames (n) an account. */
export const useUpdateAccount = () =>
  useAdminMutation(({ id, ...body }: { id: number; s?: 0 | 1; n?: string }) =>
    api(`/api/admin/accounts/${id}`, { method: 'PUT', body }),
  );

export const useCreateUser = () =>
  useAdminMutation(({ accountId, body }: { accountId: number; body: AdminUserCreateBody }) =>
    api(`/api/admin/accounts/${accountId}/users`, { method: 'POST', body }),
  );

export const useUpdateUser = () =>
  useAdminMutation(({ id, body }: { id: number; body: AdminUserUpdateBody }) =>
    api(`/api/admin/users/${id}`, { method: 'PUT', body }),
  );

export const useSetPassword = () =>
  useAdminMutation(({ id, password }: { id: number; password: string }) =>
    api(`/api/admin/users/${id}/password`, { method: 'PUT', body: { password } }),
  );

export const useDeleteUser = () =>
  useAdminMutation((id: number) => api(`/api/admin/users/${id}`, { method: 'DELETE' }));
