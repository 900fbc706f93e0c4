import type { NotificationWire, SessionAuthReply } from '@fleetkeep/core';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  CloseButton,
  Group,
  Indicator,
  NativeSelect,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { fleetTime } from '../../lib/fleetTime.ts';
import { kindTitleKey, NOTIFICATION_KINDS, unreadLabel } from '../../lib/header.ts';
import { useAlerts, useDeleteAlerts, useReadAlerts } from './api.ts';
import classes from './Notifications.module.css';
import { isUnread, notificationSubject, notificationTarget, unreadIds } from './rules.ts';

function BellIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.7 21a2 2 0 0 1-3.4 0" />
    </svg>
  );
}

/**
 * The notification bell of the header (spec §2 "Notification bell", §4 "Notification kinds"): the
 * unread count (99+), and a popover listing the fleet's notifications newest first, each opening its
 * service and reading it; "mark all read" and "delete all" per kind, delete one.
 */
export function NotificationBell({ auth }: { auth: SessionAuthReply }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fid = auth.fid as number;
  const alerts = useAlerts(fid, true);
  const read = useReadAlerts(fid);
  const remove = useDeleteAlerts(fid);
  const [opened, setOpened] = useState(false);
  const [kind, setKind] = useState<number | null>(null);
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const unread = alerts.data?.unread ?? 0;
  const label = unreadLabel(unread);
  const list = (alerts.data?.alerts ?? []).filter((n) => kind === null || n.t === kind);
  const { dateFormat, timeFormat } = auth.model.s;
  // One clock: the fleet's, its zone named when the browser's differs (docs/product.md).
  const fleetTz = auth.fleets.find((f) => f.id === fid)?.tz;
  const failed = () => setFailure(t('notifications.actionFailed'));

  const open = (n: NotificationWire) => {
    setFailure(null);
    if (isUnread(n)) read.mutate({ event_ids: [n.id] }, { onError: failed });
    const to = notificationTarget(n);
    if (to) {
      setOpened(false);
      navigate(to);
    }
  };
  const markAll = () => {
    setFailure(null);
    // spec §4: only those without stm are sent (for a kind, the server changes only unread ones).
    if (kind !== null) read.mutate({ t: kind as 1 }, { onError: failed });
    else {
      const ids = unreadIds(alerts.data?.alerts ?? []).slice(0, 1000);
      if (ids.length > 0) read.mutate({ event_ids: ids }, { onError: failed });
    }
  };
  const deleteAll = () => {
    if (kind === null) return;
    remove.mutate(
      { t: kind as 1 },
      {
        onSuccess: () => setAsking(false),
        onError: () => {
          setAsking(false);
          failed();
        },
      },
    );
  };
  const counts = new Map<number, number>();
  for (const n of alerts.data?.alerts ?? []) counts.set(n.t, (counts.get(n.t) ?? 0) + 1);
  const unreadInView = list.some(isUnread);

  return (
    <>
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width="min(420px, calc(100vw - 16px))"
        shadow="md"
        withinPortal
        trapFocus
      >
        <Popover.Target>
          <Indicator label={label} disabled={label === null} size={16} offset={4} data-testid="bell-count">
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={
                label === null ? t('header.notifications') : `${t('header.notifications')}: ${label}`
              }
              aria-expanded={opened}
              data-testid="bell"
              data-unread={unread}
              onClick={() => setOpened((o) => !o)}
            >
              <BellIcon />
            </ActionIcon>
          </Indicator>
        </Popover.Target>
        <Popover.Dropdown p="xs" data-testid="bell-list">
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600}>{t('header.notifications')}</Text>
              <NativeSelect
                size="xs"
                aria-label={t('notifications.kindFilter')}
                value={kind === null ? '' : String(kind)}
                onChange={(e) => setKind(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
                data={[
                  { value: '', label: t('notifications.allKinds') },
                  ...NOTIFICATION_KINDS.map((k) => ({
                    value: String(k),
                    label: `${t(kindTitleKey(k))} (${counts.get(k) ?? 0})`,
                  })),
                ]}
                data-testid="bell-kind"
              />
            </Group>
            <Group gap="xs">
              <Button
                size="compact-xs"
                variant="light"
                disabled={!unreadInView}
                loading={read.isPending}
                onClick={markAll}
                data-testid="bell-read-all"
              >
                {t('notifications.markAllRead')}
              </Button>
              {kind !== null && (
                <Button
                  size="compact-xs"
                  variant="light"
                  color="red"
                  disabled={list.length === 0}
                  onClick={() => {
                    // The question replaces the list (a popover over the dialog would take its clicks).
                    setOpened(false);
                    setAsking(true);
                  }}
                  data-testid="bell-delete-all"
                >
                  {t('notifications.deleteAll')}
                </Button>
              )}
            </Group>
            {failure && (
              <Alert color="red" role="alert" p="xs" withCloseButton onClose={() => setFailure(null)}>
                {failure}
              </Alert>
            )}
            {alerts.isError && (
              <Alert color="red" role="alert" p="xs">
                {t('notifications.loadFailed')}
              </Alert>
            )}
            <ScrollArea.Autosize mah="min(60vh, 480px)" type="auto">
              {list.length === 0 && !alerts.isPending ? (
                <Text size="sm" c="dimmed" p="xs">
                  {t('notifications.empty')}
                </Text>
              ) : (
                <ul className={classes.list}>
                  {list.map((n) => (
                    <li
                      key={n.id}
                      className={classes.item}
                      data-unread={isUnread(n) || undefined}
                      data-testid="bell-item"
                      data-id={n.id}
                    >
                      <UnstyledButton className={classes.itemMain} onClick={() => open(n)}>
                        <Group gap={6} wrap="nowrap">
                          {isUnread(n) && (
                            <Badge size="xs" variant="filled" circle aria-label={t('notifications.unread')}>
                              {' '}
                            </Badge>
                          )}
                          <Text size="sm" fw={isUnread(n) ? 700 : 400} truncate>
                            {t(kindTitleKey(n.t))}
                          </Text>
                        </Group>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {notificationSubject(n)}
                        </Text>
                        <Text size="xs" c="dimmed" data-testid="bell-time">
                          {fleetTime(n.tm, fleetTz, { dateFormat, timeFormat })}
                        </Text>
                      </UnstyledButton>
                      <CloseButton
                        size="sm"
                        aria-label={`${t('common.delete')}: ${notificationSubject(n)}`}
                        title={t('common.delete')}
                        disabled={remove.isPending}
                        onClick={() => {
                          setFailure(null);
                          remove.mutate({ event_ids: [n.id] }, { onError: failed });
                        }}
                        data-testid="bell-delete"
                      />
                    </li>
                  ))}
                </ul>
              )}
            </ScrollArea.Autosize>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <ConfirmDialog
        opened={asking}
        title={t('notifications.deleteAllTitle')}
        text={kind === null ? '' : t('notifications.deleteAllText', { kind: t(kindTitleKey(kind)) })}
        busy={remove.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={deleteAll}
      />
    </>
  );
}
