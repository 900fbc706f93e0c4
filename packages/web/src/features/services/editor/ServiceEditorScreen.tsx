import { SERVICE_NOTIFY_DAYS_MAX, type ServiceWire, serviceCreateBody, statusOf } from '@fleetkeep/core';
import { Alert, Anchor, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ScrollTabs } from '../../../components/ScrollTabs/ScrollTabs.tsx';
import { ServiceStatusBadge } from '../../../components/ServiceStatus.tsx';
import { useLibrary } from '../../../lib/fleetData.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import { serviceKeys, useService } from '../../../lib/services.ts';
import { useSession } from '../../../lib/session.ts';
import { usePermissions } from '../../../lib/useCan.ts';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { useCreateService, useCreateServices, useUpdateArchived, useUpdateService } from '../api.ts';
import { AttachmentsTab } from './AttachmentsTab.tsx';
import { CustomFieldsTab } from './CustomFieldsTab.tsx';
import { useIntervalNames, useObjects } from './data.ts';
import { LinesTab } from './LinesTab.tsx';
import { MainTab } from './MainTab.tsx';
import {
  archiveBody,
  batchBody,
  checkedBody,
  createBody,
  knownProblem,
  serviceFieldOf,
  updateBody,
} from './payload.ts';
import {
  type EditMode,
  editMode,
  emptyForm,
  formFromService,
  isArchivedStatus,
  type ObjectRef,
  objectValue,
  parseObjectValue,
  type ServiceForm,
  stateObjects,
  todayIn,
  withStatus,
} from './rules.ts';
import { ownProblems, type Problem, problemOfCore, tabOfField } from './validation.ts';

type Tab = 'main' | 'lines' | 'attachments' | 'custom';

/**
 * Spec §2 /service/{serviceId}: the service editor (main data, line items, attachments, custom fields).
 * 'new' needs manageService (the route guard); an id the server does not know goes to /services (§8).
 */
export default function ServiceEditorScreen() {
  const params = useParams();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const isNew = params.id === 'new';
  const id = !isNew && /^\d+$/.test(params.id ?? '') ? Number(params.id) : null;
  const service = useService(fid, id);
  if (!auth || fid === null) return null;
  if (!isNew && (id === null || service.isError)) {
    if (service.isError) console.warn('Service fetch failed', service.error);
    return <Navigate to="/services" replace />;
  }
  if (!isNew && service.isPending) return <Loading />;
  return <Editor key={id ?? 'new'} fid={fid} service={isNew ? null : (service.data ?? null)} />;
}

function Editor({ fid, service }: { fid: number; service: ServiceWire | null }) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const can = usePermissions();
  const settings = auth?.model.s;
  const dateFormat = settings?.dateFormat ?? 'DD.MM.YYYY';
  const timeFormat = settings?.timeFormat ?? 'HH:mm';
  const miles = fleet?.ms === 1;
  const tz = fleet?.tz ?? 0;
  const currency = fleet?.cur ?? '';
  const isNew = service === null;
  const mode: EditMode = editMode(can, service?.f ?? null);
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const today = todayIn(tz, Math.floor(Date.now() / 1000));

  const { objects, pending: objectsPending } = useObjects(fid);
  const intervals = useIntervalNames(fid);
  const library = useLibrary(fid);
  const create = useCreateService(fid);
  const createMany = useCreateServices(fid);
  const update = useUpdateService(fid);
  const updateArchived = useUpdateArchived(fid);

  const [tab, setTab] = useState<Tab>('main');
  const [submitted, setSubmitted] = useState(false);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const problemText = (problem: Problem) =>
    t(`serviceEditor.problem.${problem}`, { max: SERVICE_NOTIFY_DAYS_MAX });
  const {
    draft: form,
    clean: initial,
    errors,
    failure: formError,
    dirty,
    edit,
    validate,
    showRefusal,
    accept,
    leaveWarning,
  } = useEditorForm<ServiceForm, string>({
    initial: () =>
      service ? formFromService(service, tz, miles) : emptyForm(today, stateObjects(location.state)),
    schema: serviceCreateBody,
    body: (f) => checkedBody(f, miles),
    fieldOf: serviceFieldOf,
    text: (problem, field) => problemText(problemOfCore(problem, field)),
    check: (f) => {
      const own: Record<string, string> = {};
      for (const [field, problem] of Object.entries(ownProblems(f, { today, mode, isNew, initial })))
        own[field] = problemText(problem);
      return own;
    },
    // A change made elsewhere (live event refetch) reloads the form unless the user is editing it.
    record: service ? { version: service.updated, draft: () => formFromService(service, tz, miles) } : null,
    // Navigating away after a create asks nothing.
    leave: leaveTo === null ? {} : false,
    generic: t('serviceEditor.saveFailed', { reason: t('common.error') }),
    // The date rules the server words in English are shown in the user's words.
    reword: (_err, view) => ({
      fields: Object.fromEntries(
        Object.entries(view.fields).map(([field, message]) => {
          const known = knownProblem(message ?? '');
          return [field, known ? problemText(known) : message];
        }),
      ),
      failure: view.failure === null ? null : t('serviceEditor.saveFailed', { reason: view.failure }),
    }),
  });

  // Objects from navigation state that the fleet does not hold are dropped once the lists are in.
  useEffect(() => {
    if (!isNew || objectsPending) return;
    const known = new Set(objects.map(objectValue));
    if (form.objects.every((v) => known.has(v))) return;
    const patch = { objects: form.objects.filter((v) => known.has(v)) };
    if (dirty) edit(patch);
    else accept({ ...form, ...patch });
  }, [isNew, objectsPending, objects]);

  // Navigate only after the form counts as saved, so the leave-page warning does not ask.
  useEffect(() => {
    if (leaveTo !== null) navigate(leaveTo, { replace: leaveTo.startsWith('/service/') });
  }, [leaveTo, navigate]);

  /** A field edited loses its error; grouped fields (line items, custom fields) all of theirs. */
  const change = (patch: Partial<ServiceForm>) => {
    setSaved(false);
    const groups = [
      ...('lines' in patch ? ['lines.' as const] : []),
      ...('cf' in patch ? ['cf.' as const] : []),
    ];
    edit(patch, ...Object.keys(patch), ...groups);
  };

  const done = (next: ServiceWire) => {
    client.setQueryData(serviceKeys.one(fid, next.id), next);
    accept(formFromService(next, tz, miles), next.updated);
    setSubmitted(false);
    setSaved(true);
  };

  /** Opens the tab of the first field with a problem. */
  const showFirst = (fields: Record<string, unknown>) => {
    const first = Object.keys(fields)[0];
    if (first) setTab(tabOfField(first));
  };

  const save = async (confirmed = false) => {
    setSubmitted(true);
    setSaved(false);
    if (!validate(showFirst)) return;
    // Closing or rejecting moves the service to the archive, where its status is frozen (spec §4).
    if (!confirmed && !isNew && form.status !== initial.status && isArchivedStatus(form.status)) {
      setConfirmArchive(true);
      return;
    }
    setConfirmArchive(false);
    setBusy(true);
    try {
      if (isNew) {
        const chosen = form.objects.map(parseObjectValue).filter((o): o is ObjectRef => o !== null);
        if (chosen.length > 1) {
          // Several objects: one service each, in one atomic call (spec §7 POST .../services/batch).
          await createMany.mutateAsync(batchBody(form, miles).services);
          accept(form);
          setLeaveTo('/services');
        } else {
          const created = await create.mutateAsync(createBody(form, chosen[0] as ObjectRef, miles));
          client.setQueryData(serviceKeys.one(fid, created.id), created);
          accept(form);
          setLeaveTo(`/service/${created.id}`);
        }
      } else if (mode === 'archive') {
        done(await updateArchived.mutateAsync({ id: service.id, body: archiveBody(form, initial, miles) }));
      } else {
        done(await update.mutateAsync({ id: service.id, body: updateBody(form, initial, miles) }));
      }
      // Names typed on line items join the library (server ensureLibraryItems).
      void client.invalidateQueries({ queryKey: queryKeys.collection(fid, 'lineitem') });
    } catch (err) {
      showFirst(showRefusal(err).fields);
    } finally {
      setBusy(false);
    }
  };

  const intervalName = useMemo(
    () => intervals.data?.find((i) => i.id === service?.ivid)?.n ?? null,
    [intervals.data, service?.ivid],
  );
  const lineErrors = Object.keys(errors).some((k) => k.startsWith('lines.'));
  const customErrors = Object.keys(errors).some((k) => k.startsWith('cf.')); // customfields
  const mainErrors = Object.keys(errors).some((k) => !k.startsWith('lines.') && !k.startsWith('cf.'));
  const linesEditable = mode !== 'readonly' && !busy;
  // The title names the object the service is for.
  const objectName = service
    ? (objects.find((o) => objectValue(o) === objectValue({ t: service.t, id: service.uid }))?.name ?? null)
    : null;
  const status = service ? statusOf(service.f) : null;

  return (
    <Stack gap="md" pb={80}>
      {/* A way back to the list, as the interval editor has. */}
      <Anchor component={Link} to="/services" size="sm" data-testid="service-back">
        {`← ${t('menu.services')}`}
      </Anchor>
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {isNew ? t('serviceEditor.titleNew') : service.n}
          </Title>
          {objectName && (
            <Text c="dimmed" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="service-object">
              {objectName}
            </Text>
          )}
        </div>
        {status && service && (
          <span data-testid="service-badge">
            <ServiceStatusBadge f={service.f} size="lg" />
          </span>
        )}
      </Group>
      {mode === 'readonly' && !isNew && (
        <Alert color="gray" py="xs" data-testid="service-readonly">
          {status && isArchivedStatus(status)
            ? t('serviceEditor.archivedReadonly')
            : t('serviceEditor.readonly')}
        </Alert>
      )}
      {mode === 'archive' && (
        <Alert color="blue" py="xs" data-testid="service-archive-edit">
          {t('serviceEditor.archiveEditHint')}
        </Alert>
      )}
      <ScrollTabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="main" color={mainErrors ? 'red' : undefined}>
            {t('serviceEditor.tabMain')}
          </Tabs.Tab>
          <Tabs.Tab value="lines" color={lineErrors ? 'red' : undefined}>
            {t('serviceEditor.tabLines', { n: form.lines.length })}
          </Tabs.Tab>
          <Tabs.Tab value="attachments" disabled={isNew}>
            {t('serviceEditor.tabAttachments', { n: service?.ats ?? 0 })}
          </Tabs.Tab>
          <Tabs.Tab value="custom" color={customErrors ? 'red' : undefined}>
            {t('serviceEditor.tabCustom')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="main" pt="md">
          <MainTab
            form={form}
            initial={initial}
            onChange={change}
            onStatus={(s) => {
              setSaved(false);
              edit(withStatus(form, s, today), 'status', 'plannedDate', 'startDate', 'endDate', 'notifyDays');
            }}
            errors={errors}
            touched={submitted}
            mode={mode}
            isNew={isNew}
            busy={busy}
            service={service}
            objects={objects}
            intervalName={intervalName}
            miles={miles}
            dateFormat={dateFormat}
            currency={currency}
          />
        </Tabs.Panel>
        <Tabs.Panel value="lines" pt="md">
          <LinesTab
            lines={form.lines}
            onChange={(lines) => change({ lines })}
            library={library.data ?? []}
            errors={errors}
            editable={mode !== 'readonly'}
            busy={!linesEditable}
            currency={currency}
          />
        </Tabs.Panel>
        <Tabs.Panel value="attachments" pt="md">
          {service && (
            <AttachmentsTab
              fid={fid}
              serviceId={service.id}
              editable={mode !== 'readonly'}
              dateFormat={dateFormat}
              timeFormat={timeFormat}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="custom" pt="md">
          {/* customfields: edited with the form, sent by the save (payload.ts). */}
          <CustomFieldsTab
            fid={fid}
            values={form.cf}
            onChange={(cf) => change({ cf })}
            readOnly={mode === 'readonly'}
            disabled={busy}
            errors={errors}
          />
        </Tabs.Panel>
      </ScrollTabs>
      {formError && (
        <Alert color="red" role="alert" py="xs" data-testid="service-error">
          {formError}
        </Alert>
      )}
      {mode !== 'readonly' && (
        <Group
          gap="sm"
          py="sm"
          style={{
            position: 'sticky',
            bottom: 0,
            background: 'var(--mantine-color-body)',
            borderTop: '1px solid var(--mantine-color-default-border)',
            zIndex: 2,
          }}
        >
          <Button
            onClick={() => void save()}
            loading={busy}
            disabled={!isNew && !dirty}
            data-testid="service-save"
          >
            {isNew && form.objects.length > 1
              ? t('serviceEditor.createMany', { n: form.objects.length })
              : t('common.save')}
          </Button>
          <Button variant="default" onClick={() => navigate('/services')} disabled={busy}>
            {t('common.cancel')}
          </Button>
          {saved && !dirty && (
            <Text size="sm" c="teal" role="status" data-testid="service-saved">
              {t('serviceEditor.saved')}
            </Text>
          )}
        </Group>
      )}
      <ConfirmDialog
        opened={confirmArchive}
        title={t('serviceEditor.archiveTitle')}
        text={t(form.status === 'rejected' ? 'serviceEditor.rejectConfirm' : 'serviceEditor.closeConfirm')}
        busy={busy}
        onCancel={() => setConfirmArchive(false)}
        onConfirm={() => void save(true)}
      />
      {leaveWarning}
    </Stack>
  );
}
