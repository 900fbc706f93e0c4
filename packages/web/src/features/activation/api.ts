import type { AdminAccountCreateBody, AdminUserCreateBody, AdminUserUpdateBody } from '@fleetkeep/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/**
 * Server data of the activation screen (spec §7 "Admin", PRODUCT.md "Administration").
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
    queryFn: ({ signal }) => client.admin.accounts({ signal }),
  });
}

export function useUsers(accountId: number | null) {
  return useQuery({
    queryKey: activationKeys.users(accountId ?? 0),
    queryFn: async ({ signal }) => (await client.admin.users(accountId ?? 0, { signal })).users,
    enabled: accountId !== null,
  });
}

/** A mutation that refreshes the accounts and their users when it settles. */
function useAdminMutation<V, R>(call: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: activationKeys.all() }),
  });
}

export const useCreateAccount = () =>
  useAdminMutation((body: AdminAccountCreateBody) => client.admin.accountCreate(body));

/** Activates (s 1), suspends (s 0) or renames (n) an account. */
export const useUpdateAccount = () =>
  useAdminMutation(({ id, ...body }: { id: number; s?: 0 | 1; n?: string }) =>
    client.admin.accountUpdate(id, body),
  );

export const useCreateUser = () =>
  useAdminMutation(({ accountId, body }: { accountId: number; body: AdminUserCreateBody }) =>
    client.admin.userCreate(accountId, body),
  );

export const useUpdateUser = () =>
  useAdminMutation(({ id, body }: { id: number; body: AdminUserUpdateBody }) =>
    client.admin.userUpdate(id, body),
  );

export const useSetPassword = () =>
  useAdminMutation(({ id, password }: { id: number; password: string }) =>
    client.admin.userPassword(id, { password }),
  );

export const useDeleteUser = () => useAdminMutation((id: number) => client.admin.userRemove(id));
