import { type PersonWire, routes, type UnitWire } from '@fleetkeep/core';
import { Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ScrollTabs } from '../../components/ScrollTabs/ScrollTabs.tsx';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { AssignmentsTab } from './AssignmentsTab.tsx';
import { usePeople, useUnits } from './api.ts';
import { useCurrentDrivers } from './assignmentsApi.ts';
import { FaultCodesTab } from './FaultCodesTab.tsx';
import { FuelTab } from './FuelTab.tsx';
import { GeneralTab } from './GeneralTab.tsx';
import { IntervalsTab } from './IntervalsTab.tsx';
import { MeterTab } from './MeterTab.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { decodePeriod, KIND_INFO, type ObjectKind, stateOf } from './rules.ts';
import { ServicesTab } from './ServicesTab.tsx';
import { KIND_LABEL } from './useLabels.ts';

/** One service object as the page shows it: a unit or a driver/trailer record. */
export interface ObjectRecord {
  kind: ObjectKind;
  id: number;
  name: string;
  inService: boolean;
  unit: UnitWire | null;
  person: PersonWire | null;
}

const TABS = [
  'general',
  'profile',
  'intervals',
  'services',
  'fuel',
  'meter',
  'faults',
  'issues',
  'drivers',
  'documents',
  'tyres',
] as const;
type Tab = (typeof TABS)[number];

/** The fleet's objects of one kind, as the records of this page. */
function useObjects(fid: number | null, kind: ObjectKind) {
  const units = useUnits(kind === 'unit' ? fid : null);
  const people = usePeople(kind === 'unit' ? null : fid, kind === 'driver' ? 'drivers' : 'trailers');
  const query = kind === 'unit' ? units : people;
  const records = useMemo<ObjectRecord[] | undefined>(() => {
    if (kind === 'unit')
      return units.data?.map((u) => ({
        kind,
        id: u.id,
        name: u.nm,
        inService: u.ins !== 0,
        unit: u,
        person: null,
      }));
    return people.data?.map((p) => ({
      kind,
      id: p.id,
      name: p.n,
      inService: p.ins !== 0,
      unit: null,
      person: p,
    }));
  }, [kind, units.data, people.data]);
  // Spec §8: a failed fetch counts as an empty list (so the page goes to /items).
  return { pending: query.isPending && query.fetchStatus !== 'idle', records: query.isError ? [] : records };
}

/**
 * Spec §2 /unit/{id}, /driver/{id}, /trailer/{id}: general indicators (and the map for units), profile,
 * intervals with remaining values, services and fuel fillings. An unknown id goes to /items.
 */
export default function ObjectScreen({
  kind,
  unitMap,
  issuesTab,
  documentsTab,
  tyresTab,
}: {
  kind: ObjectKind;
  unitMap?: ReactNode;
  /** The "Issues" tab of a unit or trailer (features/issues, composed by the app's routes). */
  issuesTab?: (type: 'u' | 't', id: number) => ReactNode;
  /** The "Documents" tab of a unit, trailer or driver (features/documents, composed by the app's routes). */
  documentsTab?: (type: 'u' | 't' | 'd', id: number) => ReactNode;
  /** The "Tyres" tab of a unit: its axle diagram (features/components, composed by the app's routes). */
  tyresTab?: (unitId: number, unitTypeId: number | null) => ReactNode;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const params = useParams();
  const [search, patchSearch] = useUrlParams();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fid = auth?.fid ?? null;
  const canService = useCan(routes.services.create);
  const canFuel = useCan(routes.fuel.create) && kind === 'unit';
  // Spec §2/§6: the unit page's fuel fillings tab needs viewFuelFilling.
  const seesFuel = useCan(routes.fuel.listOfUnit) && kind === 'unit';
  const { pending, records } = useObjects(fid, kind);
  const id = Number(params.id);
  const tabParam = search.get('tab');
  // A unit's meter history (meter.view: any member).
  const seesMeter = useCan(routes.meter.list) && kind === 'unit';
  // A unit's fault codes (faultcode.view: any member).
  const seesFaults = useCan(routes.faultCodes.list) && kind === 'unit';
  // A unit's vehicle assignments (assignment.view: any member) and its current driver.
  const seesDrivers = useCan(routes.assignments.list) && kind === 'unit';
  const currentDrivers = useCurrentDrivers(fid, seesDrivers);
  // Issues of a unit or trailer (issue.report).
  const seesIssues = useCan(routes.issues.list) && issuesTab !== undefined && kind !== 'driver';
  // Documents of a unit, trailer or driver (document.view).
  const seesDocuments = useCan(routes.documents.list) && documentsTab !== undefined;
  // Tyres and other components of a unit (component.view).
  const seesTyres = useCan(routes.components.list) && tyresTab !== undefined && kind === 'unit';
  const known =
    (TABS as readonly string[]).includes(tabParam ?? '') &&
    (seesFuel || tabParam !== 'fuel') &&
    (seesMeter || tabParam !== 'meter') &&
    (seesFaults || tabParam !== 'faults') &&
    (seesDrivers || tabParam !== 'drivers') &&
    (seesIssues || tabParam !== 'issues') &&
    (seesDocuments || tabParam !== 'documents') &&
    (seesTyres || tabParam !== 'tyres');
  const tab: Tab = known ? (tabParam as Tab) : 'general';
  const period = decodePeriod(search.get('period'));

  if (!auth || fid === null) return null;
  if (pending || records === undefined) return <Loading />;
  const object = records.find((r) => r.id === id);
  // Spec §2: an unknown unit, trailer or driver redirects to /items.
  if (!object) return <Navigate to="/items" replace />;

  const setParam = (name: string, value: string | null, fallback: string) =>
    patchSearch((next) => {
      if (value === null || value === fallback) next.delete(name);
      else next.set(name, value);
      return next;
    });
  const state = stateOf(object);

  return (
    <Stack>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed">
            {t(KIND_LABEL[kind])}
          </Text>
          <Group gap="sm" wrap="wrap">
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {object.name}
            </Title>
            <Badge
              variant="light"
              color={object.inService ? 'orange' : 'green'}
              radius="sm"
              data-testid="object-state"
            >
              {t(`objects.state_${state}`)}
            </Badge>
          </Group>
          {seesDrivers && (
            <Text size="sm" c="dimmed" data-testid="object-driver">
              {currentDrivers.has(object.id)
                ? t('assignments.drivenBy', { name: currentDrivers.get(object.id) })
                : t('assignments.noCurrent')}
            </Text>
          )}
        </Stack>
        <Group gap="sm" wrap="wrap">
          {canService && (
            <Button
              onClick={() =>
                navigate('/service/new', { state: { objects: [{ id: object.id, t: KIND_INFO[kind].t }] } })
              }
              data-testid="object-create-service"
            >
              {t('objects.createService')}
            </Button>
          )}
          {canFuel && (
            <Button
              variant="light"
              onClick={() => navigate(`/fuelfilling/new?unit=${object.id}`)}
              data-testid="object-create-fuel"
            >
              {t('objects.createFuelFilling')}
            </Button>
          )}
        </Group>
      </Group>
      <ScrollTabs value={tab} onChange={(v) => setParam('tab', v, 'general')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="general">{t('objects.tabGeneral')}</Tabs.Tab>
          <Tabs.Tab value="profile">{t('objects.tabProfile')}</Tabs.Tab>
          <Tabs.Tab value="intervals">{t('objects.tabIntervals')}</Tabs.Tab>
          <Tabs.Tab value="services">{t('objects.tabServices')}</Tabs.Tab>
          {seesFuel && <Tabs.Tab value="fuel">{t('objects.tabFuel')}</Tabs.Tab>}
          {seesMeter && <Tabs.Tab value="meter">{t('objects.tabMeter')}</Tabs.Tab>}
          {seesFaults && <Tabs.Tab value="faults">{t('objects.tabFaultCodes')}</Tabs.Tab>}
          {seesDrivers && <Tabs.Tab value="drivers">{t('assignments.tab')}</Tabs.Tab>}
          {seesIssues && <Tabs.Tab value="issues">{t('issues.tab')}</Tabs.Tab>}
          {seesDocuments && <Tabs.Tab value="documents">{t('documents.tab')}</Tabs.Tab>}
          {seesTyres && <Tabs.Tab value="tyres">{t('components.tab')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="general" pt="md">
          <GeneralTab
            object={object}
            period={period}
            onPeriod={(p) => setParam('period', p, 'year')}
            map={unitMap}
          />
        </Tabs.Panel>
        <Tabs.Panel value="profile" pt="md">
          <ProfileTab object={object} />
        </Tabs.Panel>
        <Tabs.Panel value="intervals" pt="md">
          <IntervalsTab object={object} />
        </Tabs.Panel>
        <Tabs.Panel value="services" pt="md">
          <ServicesTab object={object} period={period} onPeriod={(p) => setParam('period', p, 'year')} />
        </Tabs.Panel>
        {seesFuel && (
          <Tabs.Panel value="fuel" pt="md">
            <FuelTab object={object} period={period} onPeriod={(p) => setParam('period', p, 'year')} />
          </Tabs.Panel>
        )}
        {seesMeter && (
          <Tabs.Panel value="meter" pt="md">
            <MeterTab object={object} />
          </Tabs.Panel>
        )}
        {seesFaults && (
          <Tabs.Panel value="faults" pt="md">
            <FaultCodesTab object={object} />
          </Tabs.Panel>
        )}
        {seesDrivers && (
          <Tabs.Panel value="drivers" pt="md">
            <AssignmentsTab object={object} />
          </Tabs.Panel>
        )}
        {seesIssues && (
          <Tabs.Panel value="issues" pt="md">
            {issuesTab?.(kind === 'unit' ? 'u' : 't', object.id)}
          </Tabs.Panel>
        )}
        {seesDocuments && (
          <Tabs.Panel value="documents" pt="md">
            {documentsTab?.(kind === 'unit' ? 'u' : kind === 'trailer' ? 't' : 'd', object.id)}
          </Tabs.Panel>
        )}
        {seesTyres && (
          <Tabs.Panel value="tyres" pt="md">
            {tyresTab?.(object.id, object.unit?.ut ?? null)}
          </Tabs.Panel>
        )}
      </ScrollTabs>
    </Stack>
  );
}
