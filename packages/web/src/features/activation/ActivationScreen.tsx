import { type AdminAccountWire, routes } from '@fleetkeep/core';
import { Alert, Loader, NavLink, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useCan } from '../../lib/useCan.ts';
import { AccountDialog, type AccountDialogMode } from './AccountDialog.tsx';
import { AccountTree } from './AccountTree.tsx';
import { useAccounts, useUpdateAccount } from './api.ts';
import { UsersPanel } from './UsersPanel.tsx';

/**
 * Spec §2 /activation: top-level admins (core guards.ts) activate and suspend the accounts below them
 * and manage their users. The tree and the users list stand side by side, stacked at phone
 * width.
 */
export default function ActivationScreen() {
  const { t } = useTranslation();
  const canManage = useCan(routes.admin.accountUpdate);
  const accounts = useAccounts();
  const update = useUpdateAccount();
  const [selected, setSelected] = useState<number | null>(null);
  const [dialog, setDialog] = useState<AccountDialogMode | null>(null);
  const [suspending, setSuspending] = useState<AdminAccountWire | null>(null);
  const [toggleError, setToggleError] = useState<string | null>(null);

  const list = accounts.data?.accounts ?? [];
  const own = accounts.data?.own ?? null;
  // The caller's own account is not in the tree (it cannot suspend itself) but its users are theirs to
  // manage: a self-hoster's colleagues live in the organisation's top account.
  const ownAccount: AdminAccountWire | null = own
    ? { id: own.id, n: own.n, parent: null, s: 1, active: 1, fleets: [] }
    : null;
  const current =
    (selected !== null && selected === own?.id ? ownAccount : list.find((a) => a.id === selected)) ?? null;
  const setState = (account: AdminAccountWire, s: 0 | 1) => {
    setToggleError(null);
    update.mutate(
      { id: account.id, s },
      { onSettled: () => setSuspending(null), onError: () => setToggleError(t('common.error')) },
    );
  };

  return (
    // No padding of its own: the shell pads every screen (a second 16 px clipped the panels at 375 px).
    <Stack gap="md">
      <Title order={1} size="h3">
        {t('menu.activation')}
      </Title>
      {accounts.isPending && <Loader size="sm" />}
      {accounts.isError && (
        <Alert color="red" role="alert">
          {t('activation.loadFailed')}
        </Alert>
      )}
      {toggleError && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setToggleError(null)}>
          {toggleError}
        </Alert>
      )}
      {accounts.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Paper withBorder p="sm" style={{ minWidth: 0 }}>
            {own && (
              <NavLink
                component="button"
                label={t('activation.ownAccountNamed', { name: own.n })}
                active={selected === own.id}
                onClick={() => setSelected(own.id)}
                data-testid="activation-own-account"
                mb="xs"
              />
            )}
            <AccountTree
              accounts={list}
              selected={selected}
              onSelect={setSelected}
              canManage={canManage}
              actions={{
                // Below the own account is the server's default (no parent sent).
                onCreate: (parent) =>
                  setDialog({ kind: 'create', parent: parent === own?.id ? null : parent }),
                onRename: (account) => setDialog({ kind: 'rename', account }),
                onToggle: (account) => (account.s === 1 ? setSuspending(account) : setState(account, 1)),
              }}
            />
          </Paper>
          <Paper withBorder p="sm" style={{ minWidth: 0 }}>
            {current ? (
              <UsersPanel key={current.id} account={current} canManage={canManage} />
            ) : (
              <Text c="dimmed">{t('activation.selectAccount')}</Text>
            )}
          </Paper>
        </SimpleGrid>
      )}
      {dialog && (
        <AccountDialog
          mode={dialog}
          accounts={list}
          onClose={() => setDialog(null)}
          onCreated={setSelected}
        />
      )}
      <ConfirmDialog
        opened={suspending !== null}
        title={t('activation.suspendTitle')}
        text={suspending ? t('activation.suspendText', { name: suspending.n }) : ''}
        busy={update.isPending}
        onCancel={() => setSuspending(null)}
        onConfirm={() => suspending && setState(suspending, 0)}
      />
    </Stack>
  );
}
