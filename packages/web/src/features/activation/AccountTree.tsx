import type { AdminAccountWire } from '@fleetkeep/core';
import { Badge, Box, Button, Group, Menu, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../components/IconButton.tsx';
import {
  type AccountNode,
  type AccountState,
  accountState,
  ancestorIds,
  buildTree,
  filterTree,
  visibleRows,
} from './rules.ts';

const STATE_COLOR = {
  active: 'green',
  suspended: 'red',
  suspendedByParent: 'orange',
} as const satisfies Record<AccountState, string>;

export interface AccountActions {
  onCreate: (parent: number | null) => void;
  onRename: (account: AdminAccountWire) => void;
  onToggle: (account: AdminAccountWire) => void;
}

/** Spec §2 /activation: the accounts nested by parent, expand/collapse, a name filter keeping ancestors. */
export function AccountTree({
  accounts,
  selected,
  onSelect,
  canManage,
  actions,
}: {
  accounts: readonly AdminAccountWire[];
  selected: number | null;
  onSelect: (id: number) => void;
  canManage: boolean;
  actions: AccountActions;
}) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const tree = useMemo(() => buildTree(accounts), [accounts]);
  // The top levels start open: the caller's own account and the accounts right below it.
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set(tree.map((n) => n.account.id)));
  // A selected account (a new one, too) is shown: the accounts above it open.
  useEffect(() => {
    if (selected === null) return;
    const above = ancestorIds(accounts, selected);
    setExpanded((s) => (above.every((id) => s.has(id)) ? s : new Set([...s, ...above])));
  }, [accounts, selected]);
  const filtering = filter.trim() !== '';
  const rows = useMemo(
    () => visibleRows(filterTree(tree, filter), expanded, filtering),
    [tree, filter, expanded, filtering],
  );
  const toggle = (id: number) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Stack gap="xs">
      {/* The filter keeps room for its placeholder; on a narrow panel the button wraps below it. */}
      <Group gap="xs" wrap="wrap">
        <TextInput
          style={{ flex: '1 1 14rem', minWidth: 0 }}
          placeholder={t('activation.filter')}
          aria-label={t('activation.filter')}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        {canManage && (
          <Button variant="light" onClick={() => actions.onCreate(selected)} style={{ flex: 'none' }}>
            {t('activation.newAccount')}
          </Button>
        )}
      </Group>
      {rows.length === 0 && (
        <Text c="dimmed">{accounts.length === 0 ? t('activation.noAccounts') : t('controls.noMatches')}</Text>
      )}
      <Stack gap={2} role="tree" aria-label={t('activation.accounts')}>
        {rows.map((node) => (
          <AccountRow
            key={node.account.id}
            node={node}
            open={filtering || expanded.has(node.account.id)}
            selected={node.account.id === selected}
            canManage={canManage}
            onToggle={() => toggle(node.account.id)}
            onSelect={() => onSelect(node.account.id)}
            actions={actions}
          />
        ))}
      </Stack>
    </Stack>
  );
}

function AccountRow({
  node,
  open,
  selected,
  canManage,
  onToggle,
  onSelect,
  actions,
}: {
  node: AccountNode;
  open: boolean;
  selected: boolean;
  canManage: boolean;
  onToggle: () => void;
  onSelect: () => void;
  actions: AccountActions;
}) {
  const { t } = useTranslation();
  const { account } = node;
  const state = accountState(account);
  return (
    <Group
      role="treeitem"
      aria-selected={selected}
      aria-expanded={node.children.length > 0 ? open : undefined}
      data-testid={`account-${account.id}`}
      gap="xs"
      wrap="nowrap"
      p={4}
      pl={4 + Math.min(node.depth, 6) * 16}
      bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
      style={{ borderRadius: 4 }}
    >
      <Box w={28} style={{ flex: 'none' }}>
        {node.children.length > 0 && (
          <IconButton
            size="sm"
            aria-label={open ? t('activation.collapse') : t('activation.expand')}
            onClick={onToggle}
          >
            {open ? '▾' : '▸'}
          </IconButton>
        )}
      </Box>
      <UnstyledButton onClick={onSelect} style={{ flex: 1, minWidth: 0 }}>
        <Text truncate fw={selected ? 600 : undefined}>
          {account.n}
        </Text>
        <Badge size="xs" variant="light" color={STATE_COLOR[state]}>
          {t(`activation.state.${state}`)}
        </Badge>
      </UnstyledButton>
      {canManage && (
        <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
          <Button
            size="compact-xs"
            variant="light"
            color={account.s === 1 ? 'red' : 'green'}
            onClick={() => actions.onToggle(account)}
          >
            {account.s === 1 ? t('activation.suspend') : t('activation.activate')}
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <IconButton size="sm" aria-label={t('activation.moreFor', { name: account.n })}>
                ⋯
              </IconButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => actions.onCreate(account.id)}>
                {t('activation.newSubAccount')}
              </Menu.Item>
              <Menu.Item onClick={() => actions.onRename(account)}>{t('activation.rename')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      )}
    </Group>
  );
}
