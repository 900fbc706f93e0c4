import { COUNTER_MAX, type ServiceWire, unitLabel } from '@fleetkeep/core';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { DatePicker } from '../../../components/DatePicker.tsx';
import { IconButton } from '../../../components/IconButton.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { NumericInput } from '../../../components/NumericInput.tsx';
import { integerDigits } from '../../../components/numeric.ts';
import { ServiceStatusBadge } from '../../../components/ServiceStatus.tsx';
import { dayjsLocale } from '../../../i18n/index.ts';
import { ApiError } from '../../../lib/api.ts';
import { useOpenServices } from '../../../lib/services.ts';
import { useSession } from '../../../lib/session.ts';
import { useLeaveWarning } from '../../../lib/useLeaveWarning.tsx';
import { useBatchUpdate } from '../api.ts';
import { objectPath, useLookups } from '../list/data.ts';
import { formatDay, formatDayText } from '../list/format.ts';
import { defaultPeriod, fleetToday, periodError } from '../list/rules.ts';
import {
  type CounterDraft,
  closeDateError,
  closePayload,
  closeTargets,
  counterInvalid,
  defaultDraft,
  draftEdited,
  earliestCloseDate,
  errorsByService,
  idsFromState,
} from './rules.ts';

/** Counters go up to the contract's COUNTER_MAX: its integer digits. */
const COUNTER_DIGITS = integerDigits(COUNTER_MAX);

/**
 * Spec §2 /services/close: the services selected on /services (navigation state), one close date and
 * each service's mileage / engine hours, defaulting to the object's current counters (PRODUCT.md "The
 * status engine"). Close all sends one atomic PUT .../services/batch.
 */
export default function CloseServicesScreen() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const tz = fleet?.tz ?? 0;
  const miles = fleet?.ms === 1;
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const today = fleetToday(tz, Math.floor(Date.now() / 1000));
  const ids = useMemo(() => idsFromState(location.state), [location.state]);

  const open = useOpenServices(fid);
  const lookups = useLookups(fid);
  const save = useBatchUpdate(fid);
  // The selection is fixed once loaded: services closed by this screen must not vanish from it mid-save.
  const [targets, setTargets] = useState<ServiceWire[] | null>(null);
  const [drafts, setDrafts] = useState<Map<number, CounterDraft>>(new Map());
  const [date, setDate] = useState<string | null>(today);
  const [serverErrors, setServerErrors] = useState<Map<number, { field: string; message: string }[]>>(
    new Map(),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (targets !== null || !open.data) return;
    setTargets(closeTargets(ids, open.data));
  }, [targets, open.data, ids]);

  // Counter defaults are the objects' CURRENT counters from the units list, taken once it has loaded
  // (later unit updates do not move what the user sees).
  useEffect(() => {
    if (!targets || !lookups.unitsLoaded) return;
    setDrafts((now) =>
      now.size > 0
        ? now
        : new Map(targets.map((s) => [s.id, defaultDraft(s, lookups.units.get(s.uid), miles)])),
    );
  }, [targets, lookups.unitsLoaded, lookups.units, miles]);

  const edited = date !== today || [...drafts.values()].some(draftEdited);
  const leaveDialog = useLeaveWarning(edited && done === null);

  // Navigates only after the render that turned the leave warning off.
  useEffect(() => {
    if (done !== null) void navigate(done, { replace: true });
  }, [done, navigate]);

  if (!auth || fid === null) return null;
  if (open.isError)
    return (
      <Alert color="red" role="alert">
        {open.error instanceof ApiError ? open.error.reason : t('services.loadFailed')}
      </Alert>
    );
  if (targets === null || !lookups.unitsLoaded) return <Loading />;
  // Spec §2: only the selected services that still exist; none left → /.
  if (targets.length === 0 && done === null) return <Navigate to="/" replace />;

  const dateProblem = closeDateError(date, today, targets, tz);
  const earliest = earliestCloseDate(targets, tz);
  const badCounter = [...drafts.values()].some(
    (d) => counterInvalid(d.mileage) || counterInvalid(d.engineHours),
  );
  const distance = unitLabel(i18n.language, miles ? 'mile' : 'kilometer');
  const day = (v: number) => formatDay(v, tz, dateFormat, dayjsLocale());

  const dateError =
    dateProblem === null
      ? [...serverErrors.values()].flat().find((e) => e.field === 'end_date')?.message
      : dateProblem.error === 'required'
        ? t('controls.required')
        : dateProblem.error === 'future'
          ? t('services.dateFuture')
          : t('services.dateBeforeStart', { names: dateProblem.services.map((s) => s.n).join(', ') });

  const setDraft = (id: number, patch: Partial<CounterDraft>) => {
    setDrafts((now) => {
      const prev = now.get(id);
      if (!prev) return now;
      return new Map(now).set(id, { ...prev, ...patch });
    });
    setServerErrors((now) => {
      if (!now.has(id)) return now;
      const next = new Map(now);
      next.delete(id);
      return next;
    });
  };

  const submit = () => {
    if (dateProblem !== null || date === null || badCounter) return;
    setFailure(null);
    setServerErrors(new Map());
    const list = targets.map((s) => drafts.get(s.id) ?? defaultDraft(s, undefined, miles));
    save.mutate(closePayload(list, date, miles), {
      onSuccess: () => {
        // The archive tab opens on the months from the close date to today.
        const from = defaultPeriod(date).from;
        const to = defaultPeriod(today).to;
        const query =
          periodError(from, to) === null && from !== defaultPeriod(today).from ? `&from=${from}` : '';
        setDone(`/services?tab=archive${query}`);
      },
      onError: (err) => {
        setFailure(err instanceof ApiError ? err.reason : String(err));
        setServerErrors(
          errorsByService(
            err instanceof ApiError ? err.details : undefined,
            targets.map((s) => s.id),
          ),
        );
      },
    });
  };

  const fieldError = (id: number, field: string, text: string) => {
    if (counterInvalid(text)) return t('controls.invalid');
    return serverErrors.get(id)?.find((e) => e.field === field)?.message;
  };

  return (
    <Stack maw={960}>
      <Title order={1} size="h2">
        {t('screen.servicesClose')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('services.closeIntro')}
      </Text>
      {ids.length > targets.length && (
        <Alert color="yellow" data-testid="close-left-out">
          {t('services.closeLeftOut', { count: ids.length - targets.length })}
        </Alert>
      )}
      <DatePicker
        label={t('services.closeDate')}
        withAsterisk
        value={date}
        onChange={setDate}
        dateFormat={dateFormat}
        error={dateError}
        description={
          earliest
            ? t('services.closeDateRange', { date: formatDayText(earliest, dateFormat, dayjsLocale()) })
            : undefined
        }
        maw={320}
        data-testid="close-date"
      />
      {failure && (
        <Alert color="red" role="alert" title={t('services.nothingChanged')} data-testid="close-error">
          {failure}
        </Alert>
      )}
      <Stack gap="sm" data-testid="close-services">
        {targets.map((s) => {
          const d = drafts.get(s.id);
          const rowErrors = (serverErrors.get(s.id) ?? []).filter((e) => e.field === '');
          return (
            <Paper key={s.id} withBorder p="sm" data-testid={`close-service-${s.id}`}>
              <Group justify="space-between" wrap="wrap" gap="xs" mb={d?.hasCounters ? 'xs' : 0}>
                <Stack gap={2}>
                  <Anchor component={Link} to={`/service/${s.id}`} fw={600}>
                    {s.n}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    <Anchor component={Link} to={objectPath(s.t, s.uid)} size="sm" c="dimmed">
                      {lookups.objectName(s.t, s.uid) ?? `#${s.uid}`}
                    </Anchor>
                    {s.start_date !== null && ` · ${t('services.startedOn', { date: day(s.start_date) })}`}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <ServiceStatusBadge f={s.f} />
                  {targets.length > 1 && (
                    <IconButton
                      aria-label={t('services.removeFromSelection', { name: s.n })}
                      color="gray"
                      onClick={() => {
                        setTargets(targets.filter((x) => x.id !== s.id));
                        setServerErrors(new Map());
                      }}
                      data-testid={`close-remove-${s.id}`}
                    >
                      <span aria-hidden="true">✕</span>
                    </IconButton>
                  )}
                </Group>
              </Group>
              {d?.hasCounters ? (
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                  <NumericInput
                    label={`${t('services.mileage')}, ${distance}`}
                    value={d.mileage}
                    onChange={(v) => setDraft(s.id, { mileage: v })}
                    maxIntegerLength={COUNTER_DIGITS}
                    precision={3}
                    error={fieldError(s.id, 'mileage', d.mileage)}
                    data-testid={`close-mileage-${s.id}`}
                  />
                  <NumericInput
                    label={`${t('services.engineHours')}, ${t('intervals.engineHoursUnit')}`}
                    value={d.engineHours}
                    onChange={(v) => setDraft(s.id, { engineHours: v })}
                    maxIntegerLength={COUNTER_DIGITS}
                    precision={3}
                    error={fieldError(s.id, 'engine_hours', d.engineHours)}
                    data-testid={`close-engine-hours-${s.id}`}
                  />
                </SimpleGrid>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('services.noCounters')}
                </Text>
              )}
              {rowErrors.map((e) => (
                <Text key={e.message} size="sm" c="red" role="alert" mt={4}>
                  {e.message}
                </Text>
              ))}
            </Paper>
          );
        })}
      </Stack>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" component={Link} to="/services">
          {t('common.cancel')}
        </Button>
        <Button
          onClick={submit}
          loading={save.isPending}
          disabled={dateProblem !== null || badCounter}
          data-testid="close-all"
        >
          {t('services.closeAll', { count: targets.length })}
        </Button>
      </Group>
      {leaveDialog}
    </Stack>
  );
}
