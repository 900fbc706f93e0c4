import { localDate, type PersonWire, routes, type ServiceWire, type UnitWire } from '@fleetkeep/core';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { PeriodFields } from '../../components/PeriodFields.tsx';
import { useDrivers, useIntervals, useTrailers, useUnits } from '../../lib/fleetData.ts';
import { decodePeriod, encodePeriod, type Period, periodError } from '../../lib/periods.ts';
import { useOpenServices } from '../../lib/services.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { CustomizeDialog } from './Customize.tsx';
import classes from './Dashboard.module.css';
import { ExpiringDocuments } from './ExpiringDocuments.tsx';
import { FailedInspectionsSection } from './FailedInspections.tsx';
import { GettingStarted } from './GettingStarted.tsx';
import { OpenIssuesSection } from './OpenIssuesSection.tsx';
import { OverdueWorkOrders } from './OverdueWorkOrders.tsx';
import { type SectionId, sectionTitleKey, statusCounts, visibleSections } from './rules.ts';
import {
  AttentionSection,
  CostChartSection,
  CostsSection,
  IntervalsSection,
  ObjectsSection,
  PerDistanceSection,
  StatusSection,
  TopUnitsSection,
} from './Sections.tsx';
import { useFleetFormat, useFleetStatistics, useLayout } from './useDashboard.ts';

/** Sections spanning the whole width on wide screens. */
const WIDE: ReadonlySet<SectionId> = new Set(['costChart', 'attention', 'map']);
/** Sections that read the period's statistics. */
const PERIOD_SECTIONS: ReadonlySet<SectionId> = new Set(['costs', 'perDistance', 'costChart', 'topUnits']);

type UnitPart = Pick<UnitWire, 'id' | 'nm' | 'ins' | 'lmsg' | 'pos'>;
type PersonPart = Pick<PersonWire, 'id' | 'n' | 'ins'>;

/**
 * Spec §2 /dashboard, PRODUCT.md "Dashboard": the period selector (spec §9 time ranges)
 * and the sections — services by status, objects active vs in service, interval count, costs split into
 * services and fuel, cost per 1 km/mile, costs over time, top units, needs attention and the fleet map
 * (given by the route: features do not import each other). Waits for the unit, driver, trailer, service
 * and interval lists with the loading indicator (spec §2); the fleet is in the auth reply. The sections'
 * order and the hidden ones are kept per user. Above them, for a fleet admin, the getting-started checklist
 * until its four steps are done (docs/product.md "Getting started").
 */
export default function DashboardScreen({ map }: { map?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fmt = useFleetFormat();
  const fid = fmt.fid;
  const [params, patchParams] = useUrlParams();
  const [layout, setLayout, saveFailed] = useLayout();
  const [customizing, setCustomizing] = useState(false);
  const canMap = useCan('map.view');
  const canInspect = useCan('inspection.submit');
  const canWorkOrders = useCan(routes.workOrders.list);
  const canDocuments = useCan(routes.documents.list);

  const units = useUnits<UnitPart>(fid);
  const drivers = useDrivers<PersonPart>(fid);
  const trailers = useTrailers<PersonPart>(fid);
  const intervals = useIntervals<{ id: number }>(fid);
  const services = useOpenServices(fid);

  const today = localDate(fmt.tz, Math.floor(Date.now() / 1000));
  const period = decodePeriod(params, today);
  const badPeriod = periodError(period.from, period.to);
  const shown = visibleSections(layout);
  const needsStats = shown.some((id) => PERIOD_SECTIONS.has(id));
  const stats = useFleetStatistics(fid, period.from, period.to, badPeriod === null && needsStats);

  if (!auth || fid === null) return null;
  // Spec §2: the dashboard waits for the fleet's lists, showing the loading indicator meanwhile.
  if ([units, drivers, trailers, intervals, services].some((q) => q.isPending && q.fetchStatus !== 'idle')) {
    return <Loading />;
  }

  const unitList = units.data ?? [];
  const unitNames = new Map(unitList.map((u) => [u.id, u.nm]));
  const unitName = (uid: number) => unitNames.get(uid) ?? `#${uid}`;
  const people = { d: drivers.data ?? [], t: trailers.data ?? [] };
  const objectName = (s: Pick<ServiceWire, 't' | 'uid'>) =>
    s.t === 'u' ? unitName(s.uid) : (people[s.t].find((p) => p.id === s.uid)?.n ?? `#${s.uid}`);

  const setPeriod = (next: Period) => patchParams((p) => encodePeriod(p, next));

  const failed = (
    <Text c="red" role="alert">
      {t('dashboard.loadFailed')}
    </Text>
  );
  const periodBody = (render: (s: NonNullable<typeof stats.data>) => ReactNode) => {
    if (badPeriod) return <Text c="dimmed">-</Text>;
    if (stats.isError) return failed;
    if (!stats.data) return <Loading />;
    return render(stats.data);
  };

  const body = (id: SectionId): ReactNode => {
    switch (id) {
      case 'status':
        return services.isError ? (
          failed
        ) : (
          <StatusSection counts={statusCounts(services.data ?? [])} fmt={fmt} />
        );
      case 'objects':
        return <ObjectsSection units={unitList} drivers={people.d} trailers={people.t} fmt={fmt} />;
      case 'intervals':
        return intervals.isError ? (
          failed
        ) : (
          <IntervalsSection count={intervals.data?.length ?? 0} fmt={fmt} />
        );
      case 'costs':
        return periodBody((s) => <CostsSection stats={s} fmt={fmt} />);
      case 'perDistance':
        return periodBody((s) => <PerDistanceSection stats={s} unitName={unitName} fmt={fmt} />);
      case 'costChart':
        return periodBody((s) => <CostChartSection stats={s} fmt={fmt} />);
      case 'topUnits':
        return periodBody((s) => <TopUnitsSection stats={s} unitName={unitName} fmt={fmt} />);
      case 'attention':
        return (
          <AttentionSection
            services={services.data ?? []}
            units={unitList}
            objectName={objectName}
            fmt={fmt}
          />
        );
      case 'map':
        return map && canMap ? <Suspense fallback={<Loading />}>{map}</Suspense> : null;
      case 'failedInspections':
        return canInspect ? <FailedInspectionsSection fid={fid} fmt={fmt} /> : null;
      case 'openIssues':
        return <OpenIssuesSection fid={fid} fmt={fmt} />;
      case 'overdueWorkOrders':
        return canWorkOrders ? <OverdueWorkOrders fid={fid} fmt={fmt} /> : null;
      case 'expiringDocuments':
        return canDocuments ? <ExpiringDocuments fid={fid} fmt={fmt} /> : null;
    }
  };

  return (
    <Stack>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={1} size="h2">
          {t('menu.dashboard')}
        </Title>
        <Button variant="default" onClick={() => setCustomizing(true)} data-testid="dash-customize">
          {t('dashboard.customize')}
        </Button>
      </Group>
      <GettingStarted auth={auth} fid={fid} units={unitList} intervals={intervals.data?.length ?? 0} />
      <Group gap="sm" align="flex-start" className={classes.toolbar}>
        <PeriodFields
          period={period}
          today={today}
          dateFormat={auth.model.s.dateFormat}
          onChange={setPeriod}
          testIdPrefix="dash"
        />
        {!badPeriod && (
          <Text size="sm" c="dimmed" className={classes.range} data-testid="dash-range">
            {fmt.day(period.from)} – {fmt.day(period.to)}
          </Text>
        )}
      </Group>
      <div className={classes.grid}>
        {shown.map((id) => {
          const content = body(id);
          if (content === null) return null;
          return (
            <Paper
              key={id}
              withBorder
              p="md"
              radius="md"
              component="section"
              aria-label={t(sectionTitleKey(id))}
              data-testid={`dash-section-${id}`}
              className={WIDE.has(id) ? `${classes.section} ${classes.wide}` : classes.section}
            >
              <Title order={2} size="h5" mb="sm">
                {t(sectionTitleKey(id))}
              </Title>
              {content}
            </Paper>
          );
        })}
      </div>
      <CustomizeDialog
        opened={customizing}
        onClose={() => setCustomizing(false)}
        layout={layout}
        onChange={setLayout}
        failed={saveFailed}
      />
    </Stack>
  );
}
