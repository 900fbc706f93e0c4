import type { PersonWire, UnitWire } from '@fleetkeep/core';
import { Alert, Button, Flex, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { ApiError } from '../../lib/api.ts';
import { serverIssues } from '../../lib/refusal.ts';
import { useLeaveWarning } from '../../lib/useLeaveWarning.tsx';
import { useFleet } from './api.ts';
import { rowOf, useBindable, useFleetObjects, useSaveEntities } from './objects/api.ts';
import { DeleteDialog } from './objects/DeleteDialog.tsx';
import { ObjectList } from './objects/ObjectList.tsx';
import { PersonDialog } from './objects/PersonDialog.tsx';
import {
  buildLists,
  type Draft,
  EMPTY_DRAFT,
  fleetIdsAfter,
  isDirty,
  moveIds,
  OBJECT_KINDS,
  type ObjectKind,
  type ObjectRow,
  pruneDraft,
} from './objects/rules.ts';
import { UnitDialog } from './objects/UnitDialog.tsx';

type PerKind<T> = Record<ObjectKind, T>;
const perKind = <T,>(make: () => T): PerKind<T> => ({ units: make(), drivers: make(), trailers: make() });

interface Selection {
  fleet: Set<number>;
  available: Set<number>;
}
const noSelection = (): Selection => ({ fleet: new Set(), available: new Set() });

type Dialog = { type: 'create' } | { type: 'edit'; row: ObjectRow } | { type: 'delete'; row: ObjectRow };

const KIND_LABEL: PerKind<string> = {
  units: 'objects.filterUnits',
  drivers: 'objects.filterDrivers',
  trailers: 'objects.filterTrailers',
};
const NEW_LABEL: PerKind<string> = {
  units: 'fleetAdmin.objects.newUnit',
  drivers: 'fleetAdmin.objects.newDriver',
  trailers: 'fleetAdmin.objects.newTrailer',
};

/** The saved state of one kind: the fleet's objects, what may be bound, and the draft made current. */
function useKind(fid: number, kind: ObjectKind, draft: Draft) {
  const fleet = useFleetObjects(fid, kind);
  const bindable = useBindable(fid, kind);
  const fleetRows = (fleet.data ?? []).map((o) => rowOf(kind, o));
  const bindableRows = (bindable.data ?? []).map((o) => rowOf(kind, o));
  const saved = new Set(fleetRows.map((r) => r.id));
  const known = new Set([...saved, ...bindableRows.map((r) => r.id)]);
  const current = pruneDraft(draft, saved, known);
  return {
    pending: fleet.isPending || bindable.isPending,
    error: fleet.isError || bindable.isError,
    wire: new Map<number, UnitWire | PersonWire>((fleet.data ?? []).map((o) => [o.id, o])),
    fleetRows,
    bindableRows,
    saved,
    savedIds: fleetRows.map((r) => r.id),
    draft: current,
    dirty: isDirty(current),
  };
}

/**
 * The fleet's service objects tab (spec §2 /fleet/{fleetId}; PRODUCT.md "Administration"
 * and "Service objects and counters"). Per kind two lists, in this fleet and available in the account,
 * with filter, select all and moves; Save binds with `PUT /fleets/{id}/entities` every kind with unsaved
 * moves (drafts are kept per kind while switching), Cancel drops them. New, edit and delete per object;
 * changes refresh the app's lists of that collection.
 */
export function ObjectsTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const fleet = useFleet(fid);
  const [kind, setKind] = useState<ObjectKind>('units');
  const [drafts, setDrafts] = useState<PerKind<Draft>>(() => perKind(() => EMPTY_DRAFT));
  const [selection, setSelection] = useState<PerKind<Selection>>(() => perKind(noSelection));
  const [filters, setFilters] = useState<PerKind<{ fleet: string; available: string }>>(() =>
    perKind(() => ({ fleet: '', available: '' })),
  );
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSaveEntities(fid);

  const kinds: PerKind<ReturnType<typeof useKind>> = {
    units: useKind(fid, 'units', drafts.units),
    drivers: useKind(fid, 'drivers', drafts.drivers),
    trailers: useKind(fid, 'trailers', drafts.trailers),
  };
  const dirtyKinds = OBJECT_KINDS.filter((k) => kinds[k].dirty);
  const dirty = dirtyKinds.length > 0;
  const leaveWarning = useLeaveWarning(dirty, { tabParam: 'tab' });
  const busy = save.isPending;
  const ms = fleet.data?.ms ?? 0;

  const state = kinds[kind];
  const lists = buildLists(state.fleetRows, state.bindableRows, state.draft);
  const sel = selection[kind];

  const move = (ids: number[], toFleet: boolean) => {
    setDrafts((d) => ({ ...d, [kind]: moveIds(state.draft, ids, toFleet, state.saved) }));
    setSelection((s) => {
      const from = new Set(toFleet ? s[kind].available : s[kind].fleet);
      for (const id of ids) from.delete(id);
      return { ...s, [kind]: toFleet ? { ...s[kind], available: from } : { ...s[kind], fleet: from } };
    });
    setSaved(false);
    setFailure(null);
  };

  const submit = async () => {
    setFailure(null);
    setNotice(null);
    const body = Object.fromEntries(
      dirtyKinds.map((k) => [k, fleetIdsAfter(kinds[k].savedIds, kinds[k].draft)]),
    );
    try {
      await save.mutateAsync(body);
      setDrafts((d) => ({ ...d, ...Object.fromEntries(dirtyKinds.map((k) => [k, EMPTY_DRAFT])) }));
      setSelection((s) => ({ ...s, ...Object.fromEntries(dirtyKinds.map((k) => [k, noSelection()])) }));
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiError) {
        const reasons = serverIssues(err.details).map((i) => i.message);
        setFailure([err.reason, ...new Set(reasons)].filter(Boolean).join(' · '));
      } else setFailure(t('objects.saveFailed'));
    }
  };
  const cancel = () => {
    setDrafts(perKind(() => EMPTY_DRAFT));
    setSelection(perKind(noSelection));
    setFailure(null);
    setSaved(false);
  };

  const editRow = dialog?.type === 'edit' ? state.wire.get(dialog.row.id) : undefined;

  return (
    <Stack data-testid="fleet-objects">
      {leaveWarning}
      <Group justify="space-between" gap="sm" wrap="wrap">
        <SegmentedControl
          value={kind}
          onChange={(v) => {
            setKind(v as ObjectKind);
            setFailure(null);
          }}
          data={OBJECT_KINDS.map((k) => ({
            value: k,
            label: kinds[k].dirty ? `${t(KIND_LABEL[k])} •` : t(KIND_LABEL[k]),
          }))}
          aria-label={t('objects.kind')}
          data-testid="objects-kind"
          style={{ maxWidth: '100%' }}
        />
        <Button onClick={() => setDialog({ type: 'create' })} disabled={busy} data-testid="objects-new">
          {t(NEW_LABEL[kind])}
        </Button>
      </Group>
      {notice && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setNotice(null)}
          data-testid="objects-notice"
        >
          {notice}
        </Alert>
      )}
      {state.error ? (
        <Alert color="red" role="alert">
          {t('objects.loadFailed')}
        </Alert>
      ) : state.pending ? (
        <Loading />
      ) : (
        <Flex direction={{ base: 'column', sm: 'row' }} gap="md" align="stretch">
          <ObjectList
            title={t('fleetAdmin.objects.inFleet')}
            rows={lists.inFleet}
            filter={filters[kind].fleet}
            onFilter={(text) => setFilters((f) => ({ ...f, [kind]: { ...f[kind], fleet: text } }))}
            selected={sel.fleet}
            onSelected={(next) => setSelection((s) => ({ ...s, [kind]: { ...s[kind], fleet: next } }))}
            moveLabel={(count) => t('fleetAdmin.objects.removeSelected', { n: count })}
            onMove={(ids) => move(ids, false)}
            emptyText={t('fleetAdmin.objects.emptyFleet')}
            canAct={(row) => state.saved.has(row.id)}
            onEdit={(row) => setDialog({ type: 'edit', row })}
            onDelete={(row) => setDialog({ type: 'delete', row })}
            disabled={busy}
            testId="objects-fleet"
          />
          <ObjectList
            title={t('fleetAdmin.objects.available')}
            rows={lists.available}
            filter={filters[kind].available}
            onFilter={(text) => setFilters((f) => ({ ...f, [kind]: { ...f[kind], available: text } }))}
            selected={sel.available}
            onSelected={(next) => setSelection((s) => ({ ...s, [kind]: { ...s[kind], available: next } }))}
            moveLabel={(count) => t('fleetAdmin.objects.addSelected', { n: count })}
            onMove={(ids) => move(ids, true)}
            emptyText={t('fleetAdmin.objects.emptyAvailable')}
            canAct={(row) => state.saved.has(row.id)}
            onEdit={(row) => setDialog({ type: 'edit', row })}
            onDelete={(row) => setDialog({ type: 'delete', row })}
            disabled={busy}
            testId="objects-available"
          />
        </Flex>
      )}
      {failure && (
        <Alert color="red" role="alert" data-testid="objects-failure">
          {failure}
        </Alert>
      )}
      <Group gap="sm" wrap="wrap">
        <Button onClick={() => void submit()} loading={busy} disabled={!dirty} data-testid="objects-save">
          {t('common.save')}
        </Button>
        <Button variant="default" onClick={cancel} disabled={!dirty || busy} data-testid="objects-cancel">
          {t('common.cancel')}
        </Button>
        {dirty && (
          <Text size="sm" c="dimmed" data-testid="objects-unsaved">
            {t('fleetAdmin.objects.unsaved', {
              kinds: dirtyKinds.map((k) => t(KIND_LABEL[k])).join(', '),
            })}
          </Text>
        )}
        {saved && !dirty && (
          <Text size="sm" c="green" role="status" data-testid="objects-saved">
            {t('fleetAdmin.saved')}
          </Text>
        )}
      </Group>

      {dialog?.type === 'create' &&
        (kind === 'units' ? (
          <UnitDialog fid={fid} ms={ms} unit={null} onClose={() => setDialog(null)} />
        ) : (
          <PersonDialog fid={fid} kind={kind} person={null} onClose={() => setDialog(null)} />
        ))}
      {dialog?.type === 'edit' &&
        editRow !== undefined &&
        (kind === 'units' ? (
          <UnitDialog fid={fid} ms={ms} unit={editRow as UnitWire} onClose={() => setDialog(null)} />
        ) : (
          <PersonDialog
            fid={fid}
            kind={kind}
            person={editRow as PersonWire}
            onClose={() => setDialog(null)}
          />
        ))}
      {dialog?.type === 'delete' && (
        <DeleteDialog
          fid={fid}
          kind={kind}
          object={dialog.row}
          onClose={() => setDialog(null)}
          onDeleted={(name, services) => {
            setDialog(null);
            setNotice(t('fleetAdmin.objects.deleted', { name, n: services }));
          }}
        />
      )}
    </Stack>
  );
}
