import {
  formatMoney,
  formatWhole,
  overdueKinds,
  type RuleKind,
  type ServiceWire,
  statusBadge,
} from '@fleetkeep/core';
import { Anchor, Menu, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { DataColumn } from '../../../components/DataTable/DataTable.tsx';
import { IconButton } from '../../../components/IconButton.tsx';
import { ServiceStatusBadge, STATUS_LABEL } from '../../../components/ServiceStatus.tsx';
import type { Can } from '../../../lib/permissions.ts';
import { kmToDisplay } from '../close/rules.ts';
import { type Names, objectPath } from './data.ts';
import { formatDay } from './format.ts';
import {
  archiveActions,
  dateOf,
  plannedSortKey,
  type QuickAction,
  quickActions,
  remaining,
  type Tab,
} from './rules.ts';

const KIND_LABEL: Record<RuleKind, string> = {
  mileage: 'services.kindMileage',
  engineHours: 'services.kindEngineHours',
  days: 'services.kindDays',
};

const ACTION_LABEL: Record<QuickAction, string> = {
  inProgress: 'services.actionInProgress',
  close: 'services.actionClose',
  reject: 'services.actionReject',
};

export interface ColumnContext {
  t: TFunction;
  tab: Tab;
  tz: number;
  miles: boolean;
  /** The user's permissions in the fleet (lib/useCan.ts). */
  can: Can;
  currency: string;
  dateFormat: string;
  /** The dayjs locale of month names. */
  locale: string;
  /** The user's language: grouping and decimal separator of numbers, money (docs/product.md). */
  lang: string;
  distanceUnit: string;
  /** Names of objects and intervals (data.ts `useLookups().names`). */
  lookups: Names;
  onQuick: (action: QuickAction, service: ServiceWire) => void;
  onDelete: (service: ServiceWire) => void;
}

/** "Overdue: mileage, time" from the flags (spec §4 overdue kinds). */
export function overdueText(t: TFunction, f: number): string {
  const kinds = overdueKinds(f);
  if (kinds.length === 0) return '';
  return t('services.overdueBy', { kinds: kinds.map((k) => t(KIND_LABEL[k])).join(', ') });
}

/** Spec §9 remaining value, whole and in the user's locale: "In: 1,500 km · 20 e.h." or "Overdue: 12 km". */
function remainingText(c: ColumnContext, s: ServiceWire): string {
  const r = remaining(s);
  const parts: string[] = [];
  const say = (value: number, unit: string) =>
    value < 0
      ? c.t('services.remainingOverdue', { value: `${formatWhole(-value, c.lang)} ${unit}` })
      : c.t('services.remainingIn', { value: `${formatWhole(value, c.lang)} ${unit}` });
  if (r.mileage !== null) parts.push(say(kmToDisplay(r.mileage, c.miles), c.distanceUnit));
  if (r.engineHours !== null) parts.push(say(r.engineHours, c.t('intervals.engineHoursUnit')));
  return parts.join(' · ');
}

function RowMenu({ c, s }: { c: ColumnContext; s: ServiceWire }) {
  const quick = quickActions(s.f, c.can);
  const archive = c.tab === 'archive' ? archiveActions(c.can) : { edit: false, delete: false };
  if (quick.length === 0 && !archive.edit && !archive.delete) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <IconButton aria-label={c.t('services.rowMenu', { name: s.n })} data-testid={`service-menu-${s.id}`}>
          <span aria-hidden="true">⋯</span>
        </IconButton>
      </Menu.Target>
      <Menu.Dropdown>
        {quick.map((a) => (
          <Menu.Item key={a} color={a === 'reject' ? 'red' : undefined} onClick={() => c.onQuick(a, s)}>
            {c.t(ACTION_LABEL[a])}
          </Menu.Item>
        ))}
        {archive.edit && (
          <Menu.Item component={Link} to={`/service/${s.id}`}>
            {c.t('services.actionEdit')}
          </Menu.Item>
        )}
        {archive.delete && (
          <Menu.Item color="red" onClick={() => c.onDelete(s)}>
            {c.t('common.delete')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The columns of a tab of /services (spec §2). */
export function serviceColumns(c: ColumnContext): DataColumn<ServiceWire>[] {
  const { t, tab } = c;
  const day = (v: number | null) => (v === null ? '' : formatDay(v, c.tz, c.dateFormat, c.locale));
  const objectName = (s: ServiceWire) => c.lookups.objectName(s.t, s.uid) ?? `#${s.uid}`;
  const columns: DataColumn<ServiceWire>[] = [
    {
      id: 'name',
      header: t('services.name'),
      phone: 'title',
      value: (s) => s.n,
      cell: (s) => (
        <Anchor
          component={Link}
          to={`/service/${s.id}`}
          fw={500}
          c={statusBadge(s.f) === 'overdue' ? 'red' : undefined}
          data-overdue={statusBadge(s.f) === 'overdue' ? '' : undefined}
        >
          {s.n}
        </Anchor>
      ),
    },
    {
      id: 'object',
      header: t('services.object'),
      phone: 'detail',
      value: objectName,
      // The search finds a unit's services by its plate or VIN too (docs/product.md "The vehicle profile").
      text: (s) => (s.t === 'u' ? `${objectName(s)} ${c.lookups.unitSearch(s.uid)}`.trim() : objectName(s)),
      csv: objectName,
      cell: (s) => (
        <Anchor component={Link} to={objectPath(s.t, s.uid)}>
          {objectName(s)}
        </Anchor>
      ),
    },
    {
      id: 'interval',
      header: t('services.interval'),
      value: (s) => c.lookups.intervalName(s.ivid) ?? '',
      text: (s) => c.lookups.intervalName(s.ivid) ?? '-',
    },
  ];
  if (tab !== 'inProgress')
    columns.push({
      id: 'status',
      header: t('services.status'),
      phone: 'detail',
      value: (s) => statusBadge(s.f),
      text: (s) => [t(STATUS_LABEL[statusBadge(s.f)]), overdueText(t, s.f)].filter(Boolean).join(' · '),
      cell: (s) => {
        const key = statusBadge(s.f);
        return (
          <Stack gap={2} align="flex-start">
            <ServiceStatusBadge f={s.f} />
            {key === 'overdue' && (
              <Text size="xs" c="red" style={{ whiteSpace: 'nowrap' }}>
                {overdueText(t, s.f)}
              </Text>
            )}
          </Stack>
        );
      },
    });
  if (tab === 'upcoming') {
    columns.push(
      {
        id: 'planned',
        header: t('services.planned'),
        value: plannedSortKey,
        text: (s) => day(s.limit_date),
      },
      {
        id: 'expected',
        header: t('services.expected'),
        value: (s) => s.forecast_date,
        // The forecast is shown only when it says something the planned date does not.
        text: (s) => (day(s.forecast_date) === day(s.limit_date) ? '' : day(s.forecast_date)),
      },
      {
        id: 'remaining',
        header: t('services.remaining'),
        phone: 'detail',
        value: (s) => remaining(s).mileage ?? remaining(s).engineHours,
        text: (s) => remainingText(c, s),
        cell: (s) => {
          const r = remaining(s);
          const late = (r.mileage ?? 0) < 0 || (r.engineHours ?? 0) < 0;
          return (
            <Text size="sm" c={late ? 'red' : undefined} style={{ whiteSpace: 'nowrap' }}>
              {remainingText(c, s)}
            </Text>
          );
        },
      },
    );
  } else if (tab === 'inProgress') {
    columns.push(
      {
        id: 'started',
        header: t('services.started'),
        value: (s) => dateOf(s, tab),
        text: (s) => day(dateOf(s, tab)),
      },
      {
        id: 'planned',
        header: t('services.planned'),
        phone: 'detail',
        value: (s) => s.limit_date,
        text: (s) => day(s.limit_date),
      },
    );
  } else {
    columns.push(
      {
        id: 'ended',
        header: t('services.ended'),
        phone: 'detail',
        value: (s) => s.end_date,
        text: (s) => day(s.end_date),
      },
      {
        id: 'mileage',
        header: `${t('services.mileage')}, ${c.distanceUnit}`,
        value: (s) => s.mileage,
        text: (s) => (s.mileage === null ? '' : formatWhole(kmToDisplay(s.mileage, c.miles), c.lang)),
        csv: (s) => (s.mileage === null ? null : kmToDisplay(s.mileage, c.miles)),
      },
      {
        id: 'engineHours',
        header: `${t('services.engineHours')}, ${t('intervals.engineHoursUnit')}`,
        value: (s) => s.engine_hours,
        text: (s) => (s.engine_hours === null ? '' : formatWhole(s.engine_hours, c.lang)),
        csv: (s) => s.engine_hours,
      },
    );
  }
  columns.push(
    {
      id: 'cost',
      header: t('services.cost'),
      // On a phone the archive's cost is the figure that matters; open services show status instead.
      phone: tab === 'archive' ? 'detail' : undefined,
      value: (s) => s.total_cost,
      text: (s) => formatMoney(s.total_cost, c.currency, { locale: c.lang }),
      csv: (s) => s.total_cost,
      cell: (s) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(s.total_cost, c.currency, { locale: c.lang })}
        </Text>
      ),
    },
    {
      id: 'actions',
      header: t('services.actions'),
      hiddenHeader: true,
      phone: 'end',
      value: () => null,
      sortable: false,
      searchable: false,
      exported: false,
      cell: (s) => <RowMenu c={c} s={s} />,
    },
  );
  return columns;
}
