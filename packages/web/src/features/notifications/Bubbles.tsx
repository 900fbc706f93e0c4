import type { SessionAuthReply } from '@fleetkeep/core';
import { Paper, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { kindTitleKey } from '../../lib/header.ts';
import { addLiveEventFilter } from '../../lib/live.ts';
import { bubbles, notificationFilter, useAlerts, useBubbles, useReadAlerts } from './api.ts';
import classes from './Notifications.module.css';
import { notificationSubject, notificationTarget } from './rules.ts';

/**
 * The popup bubbles (spec §4, §9) and the live routing of the user's notifications: mounted once by the
 * shell. The filter is on while the bell is (spec §2 "Notification bell": hidden for admin-only fleets,
 * with notifications disabled, or without viewService); the first load counts as read (no bubbles).
 */
export function NotificationBubbles({ auth, enabled }: { auth: SessionAuthReply; enabled: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const fid = auth.fid;
  // The first load, so that what it holds never makes bubbles and the count is there before the bell opens.
  useAlerts(fid, enabled);
  const read = useReadAlerts(fid ?? 0);
  const list = useBubbles();

  useEffect(() => {
    if (!enabled) return;
    const remove = addLiveEventFilter(notificationFilter(client, () => fid));
    return () => {
      remove();
      bubbles.clear();
    };
  }, [client, fid, enabled]);

  if (!enabled || list.length === 0) return null;
  return (
    <section className={classes.stack} aria-live="polite" aria-label={t('header.notifications')}>
      {list.map(({ n, phase }) => (
        <Paper
          key={n.id}
          className={classes.bubble}
          data-phase={phase}
          shadow="md"
          withBorder
          data-testid="bubble"
        >
          <UnstyledButton
            className={classes.bubbleButton}
            onClick={() => {
              bubbles.remove(n.id);
              // spec §4 "Clicking a bubble reads it".
              read.mutate({ event_ids: [n.id] });
              const to = notificationTarget(n);
              if (to) navigate(to);
            }}
          >
            <Text size="sm" fw={700}>
              {t(kindTitleKey(n.t))}
            </Text>
            <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {notificationSubject(n)}
            </Text>
          </UnstyledButton>
        </Paper>
      ))}
    </section>
  );
}
