import { routes, type SessionAuthReply } from '@fleetkeep/core';
import {
  Anchor,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useCan } from '../../lib/useCan.ts';
import { type StartStep, showChecklist, startSteps, trackerAddresses } from './gettingStarted.ts';

type UnitPart = { lmsg: unknown; pos: unknown };

const STEP_TEXT: Record<StartStep, { title: string; hint: string }> = {
  unit: { title: 'dashboard.startUnit', hint: 'dashboard.startUnitHint' },
  tracker: { title: 'dashboard.startTracker', hint: 'dashboard.startTrackerHint' },
  interval: { title: 'dashboard.startInterval', hint: 'dashboard.startIntervalHint' },
  colleague: { title: 'dashboard.startColleague', hint: 'dashboard.startColleagueHint' },
};

function Tick({ done }: { done: boolean }) {
  return (
    <ThemeIcon size={22} radius="xl" color={done ? 'green' : 'gray'} variant={done ? 'filled' : 'light'}>
      <svg
        width="14"
        height="14"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        aria-hidden="true"
      >
        {done ? <path d="M5 12l5 5 9-10" /> : <circle cx="12" cy="12" r="3" />}
      </svg>
    </ThemeIcon>
  );
}

/** An address to paste into a tracker's app or configurator, with a copy button. */
function Address({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm">{label}</Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code data-testid={testId} style={{ wordBreak: 'break-all', minWidth: 0 }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy} style={{ flex: 'none' }}>
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/**
 * The getting-started checklist (docs/product.md "Getting started"): add a unit, connect a tracker
 * (with the addresses of DESIGN §3 to paste into Traccar Client or the Teltonika configurator), create
 * an interval, invite a colleague. Each step is ticked from the lists the dashboard reads, which live
 * events keep fresh; shown to fleet admins (who can do the steps) until all four are done.
 */
export function GettingStarted({
  auth,
  fid,
  units,
  intervals,
}: {
  auth: SessionAuthReply;
  fid: number;
  units: readonly UnitPart[];
  intervals: number;
}) {
  const { t } = useTranslation();
  const isAdmin = useCan(routes.fleets.users);
  const members = useQuery({
    queryKey: queryKeys.fleetUsers(fid),
    queryFn: ({ signal }) => client.fleets.users(fid, { signal }),
    enabled: isAdmin,
  });
  if (!isAdmin) return null;
  const steps = startSteps({ units, intervals, members: members.data?.users ?? null, me: auth.user.id });
  // Until the access list is known the checklist waits, so that a complete fleet never flashes it.
  if (members.isPending || !showChecklist(steps)) return null;
  const where: Record<StartStep, string> = {
    unit: `/fleet/${fid}?tab=objects`,
    tracker: `/fleet/${fid}?tab=objects`,
    interval: '/interval/new',
    colleague: `/fleet/${fid}?tab=users`,
  };
  const addresses = trackerAddresses(auth.config.trackers);
  const done = steps.filter((s) => s.done).length;

  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby="start-title"
      data-testid="getting-started"
    >
      <Group justify="space-between" align="baseline" gap="xs" mb={4}>
        <Title order={2} size="h5" id="start-title">
          {t('dashboard.startTitle')}
        </Title>
        <Text size="sm" c="dimmed" data-testid="start-progress">
          {t('dashboard.startProgress', { done, total: steps.length })}
        </Text>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('dashboard.startIntro')}
      </Text>
      <List
        spacing="sm"
        listStyleType="none"
        styles={{ itemWrapper: { alignItems: 'flex-start', minWidth: 0 }, itemLabel: { minWidth: 0 } }}
      >
        {steps.map((s) => (
          <List.Item
            key={s.id}
            icon={<Tick done={s.done} />}
            data-testid={`start-${s.id}`}
            data-done={s.done || undefined}
          >
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Anchor
                  component={Link}
                  to={where[s.id]}
                  fw={500}
                  td={s.done ? 'line-through' : undefined}
                  c={s.done ? 'dimmed' : undefined}
                >
                  {t(STEP_TEXT[s.id].title)}
                </Anchor>
                <Text span size="xs" c={s.done ? 'green' : 'dimmed'}>
                  {s.done ? t('dashboard.startDone') : t('dashboard.startOpen')}
                </Text>
              </Group>
              {!s.done && (
                <Text size="sm" c="dimmed">
                  {t(STEP_TEXT[s.id].hint)}
                </Text>
              )}
              {s.id === 'tracker' && !s.done && (
                <Stack gap="xs" mt={4}>
                  {addresses.osmandPort && (
                    <Address
                      label={t('dashboard.startTraccar')}
                      value={addresses.osmandPort}
                      testId="start-osmand"
                    />
                  )}
                  <Address
                    label={
                      addresses.osmandPort ? t('dashboard.startTraccarHttp') : t('dashboard.startTraccar')
                    }
                    value={addresses.osmandHttp}
                    testId="start-osmand-http"
                  />
                  {addresses.teltonika ? (
                    <Stack gap={2}>
                      <Text size="sm">{t('dashboard.startTeltonika')}</Text>
                      <Group gap="xs" wrap="wrap">
                        <Address
                          label={t('dashboard.startHost')}
                          value={addresses.teltonika.host}
                          testId="start-teltonika-host"
                        />
                        <Address
                          label={t('dashboard.startPort')}
                          value={String(addresses.teltonika.port)}
                          testId="start-teltonika-port"
                        />
                      </Group>
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed" data-testid="start-teltonika-off">
                      {t('dashboard.startTeltonikaOff')}
                    </Text>
                  )}
                </Stack>
              )}
            </Stack>
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
