import {
  type FleetWire,
  type IntervalWire,
  intervalCreateBody,
  type LineItemWire,
  routes,
} from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ScrollTabs } from '../../../components/ScrollTabs/ScrollTabs.tsx';
import { ApiError } from '../../../lib/api.ts';
import { client } from '../../../lib/client.ts';
import { useDrivers, useLibrary, useTrailers, useUnits } from '../../../lib/fleetData.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import { useSession } from '../../../lib/session.ts';
import { useUrlParams } from '../../../lib/urlParams.ts';
import { useCan } from '../../../lib/useCan.ts';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { AssignedTab } from './AssignedTab.tsx';
import { type FleetObject, fleetObjects, useIntervalList } from './data.ts';
import { type Change, errorText } from './fields.ts';
import { GeneralTab } from './GeneralTab.tsx';
import { LinesTab } from './LinesTab.tsx';
import {
  assignRefsOf,
  emptyForm,
  type FleetUnits,
  formFromWire,
  formToBody,
  type IntervalForm,
  newAssignment,
  objectKey,
} from './rules.ts';
import { useUnitLabels } from './useUnitLabels.ts';
import {
  checkedBody,
  coreProblem,
  type FieldErrors,
  intervalFieldOf,
  ownProblems,
  rewordRefusal,
  tabOfField,
} from './validation.ts';

type Tab = 'general' | 'units' | 'lines';
const TABS: readonly Tab[] = ['general', 'units', 'lines'];

/**
 * Spec §2 /interval/{intervalId}: the interval editor (general, assigned units, line items). The guard
 * allows 'new' only with manageInterval; an unknown id goes to /intervals.
 */
export default function IntervalEditorScreen() {
  const { id = '' } = useParams();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const canManage = useCan(routes.intervals.update);
  const intervals = useIntervalList(fid);
  const units = useUnits(fid);
  const drivers = useDrivers(fid);
  const trailers = useTrailers(fid);
  const library = useLibrary(fid);
  const objects = useMemo(
    () => fleetObjects(units.data ?? [], drivers.data ?? [], trailers.data ?? []),
    [units.data, drivers.data, trailers.data],
  );

  if (!auth || fid === null || !fleet) return null;
  if (intervals.isPending || units.isPending || drivers.isPending || trailers.isPending) return <Loading />;
  const isNew = id === 'new';
  const interval = isNew ? null : (intervals.data?.find((iv) => String(iv.id) === id) ?? null);
  if (!isNew && !interval) return <Navigate to="/intervals" replace />;
  return (
    <Editor
      key={id}
      fid={fid}
      fleet={fleet}
      interval={interval}
      intervals={intervals.data ?? []}
      objects={objects}
      library={library.data ?? []}
      canManage={canManage}
      dateFormat={auth.model.s.dateFormat}
    />
  );
}

function Editor({
  fid,
  fleet,
  interval,
  intervals,
  objects,
  library,
  canManage,
  dateFormat,
}: {
  fid: number;
  fleet: FleetWire;
  interval: IntervalWire | null;
  intervals: readonly IntervalWire[];
  objects: readonly FleetObject[];
  library: readonly LineItemWire[];
  canManage: boolean;
  dateFormat: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, patchParams] = useUrlParams();
  const units = useMemo<FleetUnits>(() => ({ miles: fleet.ms === 1, tz: fleet.tz }), [fleet.ms, fleet.tz]);
  const labels = useUnitLabels(units.miles);
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  const readOnly = !canManage;

  // /items bulk mode sends the objects to assign (`state.assign`); unknown ones are skipped. They are an
  // unsaved change of the new interval.
  const [preset] = useState(() => {
    if (interval) return [];
    const byKey = new Map(objects.map((o) => [objectKey(o), o]));
    return assignRefsOf(location.state)
      .map((ref) => byKey.get(objectKey(ref)))
      .filter((o): o is FleetObject => o !== undefined)
      .map((o) => newAssignment(o, o, units, now));
  });
  const [attempted, setAttempted] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const [pending, setPending] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [goTo, setGoTo] = useState<string | null>(null);

  const ctx = useMemo(
    () => ({
      ...units,
      now,
      otherNames: intervals.filter((iv) => iv.id !== interval?.id).map((iv) => iv.n),
    }),
    [units, now, intervals, interval?.id],
  );
  const word = (found: FieldErrors) =>
    Object.fromEntries(Object.entries(found).map(([field, error]) => [field, errorText(t, error) ?? '']));
  const {
    draft: form,
    errors,
    failure,
    setFailure,
    dirty: changed,
    edit,
    validate,
    showRefusal,
    accept,
    leaveWarning: leaveDialog,
  } = useEditorForm<IntervalForm, string>({
    initial: () => (interval ? formFromWire(interval, units) : emptyForm()),
    schema: intervalCreateBody,
    body: (f) => checkedBody(f, units),
    fieldOf: intervalFieldOf,
    text: (problem, field, limit) => errorText(t, coreProblem(problem, field, limit)) ?? '',
    check: (f) => word(ownProblems(f, ctx)),
    // Someone else changed the interval (a live event refetched it): follow unless there are local edits.
    record: interval
      ? { version: JSON.stringify(interval), draft: () => formFromWire(interval, units) }
      : null,
    // Navigating after a create or a delete asks nothing.
    leave: !readOnly && goTo === null ? {} : false,
    generic: t('intervalEditor.saveFailed'),
    reword: (err, view) => rewordRefusal(err.code, view, t('intervalEditor.errors.duplicate')),
  });
  const dirty = !readOnly && goTo === null && changed;
  useEffect(() => {
    if (preset.length > 0) edit({ assignments: preset });
  }, []);
  // Navigates once the blocker knows the form is clean (after a create or a delete).
  useEffect(() => {
    if (goTo !== null) navigate(goTo, { replace: true });
  }, [goTo, navigate]);

  const tabParam = params.get('tab') as Tab | null;
  const tab: Tab = tabParam && TABS.includes(tabParam) ? tabParam : 'general';
  const setTab = (next: Tab) =>
    patchParams(
      (p) => {
        if (next === 'general') p.delete('tab');
        else p.set('tab', next);
        return p;
      },
      { state: location.state },
    );
  const tabsWithErrors = new Set(Object.keys(errors).map(tabOfField));
  const showProblem = (problems: Record<string, unknown>) => {
    const first = Object.keys(problems)[0];
    if (first && !Object.keys(problems).some((k) => tabOfField(k) === tab)) setTab(tabOfField(first));
  };

  const change: Change = (fields, update) => {
    setJustSaved(false);
    edit(update(form), ...fields);
  };

  const listKey = queryKeys.collection(fid, 'interval');
  const save = async () => {
    setAttempted(true);
    const ok = validate(showProblem);
    setInvalid(!ok);
    if (!ok) return;
    setPending(true);
    try {
      const body = formToBody(form, interval, units);
      const wire = interval
        ? await client.intervals.update(fid, interval.id, body)
        : await client.intervals.create(fid, body);
      queryClient.setQueryData<IntervalWire[]>(listKey, (list) =>
        list ? [...list.filter((iv) => iv.id !== wire.id), wire] : [wire],
      );
      void queryClient.invalidateQueries({ queryKey: listKey });
      // Typed line-item names joined the library (PRODUCT.md "Intervals").
      void queryClient.invalidateQueries({ queryKey: queryKeys.collection(fid, 'lineitem') });
      accept(formFromWire(wire, units), JSON.stringify(wire));
      setAttempted(false);
      setJustSaved(true);
      if (!interval) setGoTo(`/interval/${wire.id}${tab === 'general' ? '' : `?tab=${tab}`}`);
    } catch (err) {
      showProblem(showRefusal(err).fields);
    } finally {
      setPending(false);
    }
  };

  const remove = async () => {
    if (!interval) return;
    setPending(true);
    try {
      await client.intervals.remove(fid, interval.id);
      setConfirmDelete(false);
      setGoTo('/intervals');
      void queryClient.invalidateQueries({ queryKey: listKey });
    } catch (err) {
      setConfirmDelete(false);
      setFailure(err instanceof ApiError ? err.reason : t('intervalEditor.deleteFailed'));
    } finally {
      setPending(false);
    }
  };

  const tabLabel = (which: Tab, label: string, count?: number) => (
    <Tabs.Tab
      value={which}
      data-testid={`tab-${which}`}
      rightSection={
        tabsWithErrors.has(which) ? (
          <Badge color="red" size="xs" circle aria-label={t('intervalEditor.tabHasErrors')}>
            !
          </Badge>
        ) : count !== undefined ? (
          <Badge color="gray" variant="light" size="sm">
            {count}
          </Badge>
        ) : undefined
      }
    >
      {label}
    </Tabs.Tab>
  );

  const tabProps = { form, errors, readOnly, disabled: pending, change };
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/intervals" size="sm">
        {`← ${t('menu.intervals')}`}
      </Anchor>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title
          order={1}
          size="h2"
          style={{ overflowWrap: 'anywhere', minWidth: 0 }}
          data-testid="interval-title"
        >
          {interval ? interval.n : t('intervals.new')}
        </Title>
        {canManage && (
          <Group gap="xs" wrap="wrap">
            {justSaved && !dirty && (
              <Text c="green" size="sm" role="status" data-testid="interval-saved">
                {t('intervalEditor.saved')}
              </Text>
            )}
            {interval && (
              <Button
                variant="default"
                color="red"
                onClick={() => setConfirmDelete(true)}
                disabled={pending}
                data-testid="interval-delete"
              >
                {t('common.delete')}
              </Button>
            )}
            <Button onClick={save} loading={pending} data-testid="interval-save">
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Group>
      {readOnly && (
        <Alert color="gray" py="xs" data-testid="interval-readonly">
          {t('intervalEditor.readOnly')}
        </Alert>
      )}
      {failure && (
        <Alert color="red" role="alert" py="xs" data-testid="interval-error">
          {failure}
        </Alert>
      )}
      {invalid && Object.keys(errors).length > 0 && (
        <Text c="red" size="sm" role="alert">
          {t('intervalEditor.fixErrors')}
        </Text>
      )}
      <ScrollTabs value={tab} onChange={(v) => setTab((v as Tab | null) ?? 'general')} keepMounted={false}>
        <Tabs.List>
          {tabLabel('general', t('intervalEditor.tabGeneral'))}
          {tabLabel('units', t('intervalEditor.tabUnits'), form.assignments.length)}
          {tabLabel('lines', t('intervalEditor.tabLines'), form.lines.length)}
        </Tabs.List>
        <Tabs.Panel value="general" pt="md">
          <GeneralTab {...tabProps} attempted={attempted} labels={labels} />
        </Tabs.Panel>
        <Tabs.Panel value="units" pt="md">
          <AssignedTab
            {...tabProps}
            objects={objects}
            units={units}
            labels={labels}
            now={now}
            dateFormat={dateFormat}
          />
        </Tabs.Panel>
        <Tabs.Panel value="lines" pt="md">
          <LinesTab {...tabProps} library={library} currency={fleet.cur} />
        </Tabs.Panel>
      </ScrollTabs>
      <ConfirmDialog
        opened={confirmDelete}
        title={t('intervalEditor.deleteTitle')}
        text={t('intervalEditor.deleteConfirm', { name: interval?.n ?? '' })}
        busy={pending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={remove}
      />
      {leaveDialog}
    </Stack>
  );
}
