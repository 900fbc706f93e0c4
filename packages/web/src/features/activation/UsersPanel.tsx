import type { AdminAccountWire, AdminUserWire } from '@fleetkeep/core';
import { Alert, Badge, Button, Group, Loader, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { IconButton } from '../../components/IconButton.tsx';
import { LANGUAGE_NAMES } from '../../i18n/languages.ts';
import { ApiError } from '../../lib/api.ts';
import { useCan } from '../../lib/useCan.ts';
import { useDeleteUser, useUsers } from './api.ts';
import { PasswordDialog, UserDialog } from './UserDialog.tsx';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; user: AdminUserWire }
  | { kind: 'password'; user: AdminUserWire }
  | { kind: 'delete'; user: AdminUserWire };

/**
 * The users of the selected account: login, full name, language, admin, active, with
 * new / edit / password / delete for account admins. Super users are shown but only a super user may
 * change them (the server answers 403 otherwise), so their actions are hidden.
 */
export function UsersPanel({ account, canManage }: { account: AdminAccountWire; canManage: boolean }) {
  const { t } = useTranslation();
  const isSu = useCan('platform.su');
  const users = useUsers(account.id);
  const remove = useDeleteUser();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const close = () => setDialog(null);

  return (
    <Stack gap="sm">
      {/* The heading names the account in full (it wraps); the button moves below it when narrow. */}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2} size="h4" style={{ flex: '1 1 12rem', minWidth: 0, overflowWrap: 'anywhere' }}>
          {t('activation.usersOf', { name: account.n })}
        </Title>
        {canManage && (
          <Button variant="light" onClick={() => setDialog({ kind: 'create' })} style={{ flex: 'none' }}>
            {t('activation.newUser')}
          </Button>
        )}
      </Group>
      {users.isPending && <Loader size="sm" />}
      {users.isError && (
        <Alert color="red" role="alert">
          {t('activation.loadFailed')}
        </Alert>
      )}
      {deleteError && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setDeleteError(null)}>
          {deleteError}
        </Alert>
      )}
      {users.data?.length === 0 && <Text c="dimmed">{t('activation.noUsers')}</Text>}
      <Stack gap={6} aria-label={t('activation.users')} role="list">
        {users.data?.map((u) => (
          <Paper key={u.id} withBorder p="xs" role="listitem" data-testid={`user-${u.id}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} truncate>
                  {u.nm}
                </Text>
                {u.n && (
                  <Text size="sm" c="dimmed" truncate>
                    {u.n}
                  </Text>
                )}
                <Group gap={4}>
                  <Badge size="xs" variant="outline" color="gray">
                    {LANGUAGE_NAMES[u.lang]}
                  </Badge>
                  {u.su === 1 && <Badge size="xs">{t('activation.superUser')}</Badge>}
                  {u.admin === 1 && (
                    <Badge size="xs" variant="light">
                      {t('activation.accountAdmin')}
                    </Badge>
                  )}
                  <Badge size="xs" variant="light" color={u.active ? 'green' : 'red'}>
                    {u.active ? t('activation.userActive') : t('activation.userInactive')}
                  </Badge>
                </Group>
              </Stack>
              {canManage && (isSu || u.su === 0) && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <IconButton size="sm" aria-label={t('activation.moreFor', { name: u.nm })}>
                      ⋯
                    </IconButton>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => setDialog({ kind: 'edit', user: u })}>
                      {t('activation.editUser')}
                    </Menu.Item>
                    <Menu.Item onClick={() => setDialog({ kind: 'password', user: u })}>
                      {t('activation.setPassword')}
                    </Menu.Item>
                    <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', user: u })}>
                      {t('common.delete')}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      {dialog?.kind === 'create' && <UserDialog accountId={account.id} user={null} onClose={close} />}
      {dialog?.kind === 'edit' && <UserDialog accountId={account.id} user={dialog.user} onClose={close} />}
      {dialog?.kind === 'password' && <PasswordDialog user={dialog.user} onClose={close} />}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('activation.deleteUser')}
        text={dialog?.kind === 'delete' ? t('activation.deleteUserText', { name: dialog.user.nm }) : ''}
        busy={remove.isPending}
        onCancel={close}
        onConfirm={() => {
          if (dialog?.kind !== 'delete') return;
          setDeleteError(null);
          remove.mutate(dialog.user.id, {
            onSettled: close,
            onError: (err) =>
              setDeleteError(
                err instanceof ApiError && err.status === 409
                  ? t('activation.deleteRefused')
                  : t('common.error'),
              ),
          });
        }}
      />
    </Stack>
  );
}
