import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../../components/DatePicker.tsx';
import { Select } from '../../../components/Select.tsx';
import { STATUS_LABEL } from '../../../components/ServiceStatus.tsx';
import { UnitTypeFilter } from '../../../components/UnitTypeFilter.tsx';
import { useSession } from '../../../lib/session.ts';
import { useUrlParams } from '../../../lib/urlParams.ts';
import {
  decodeFilters,
  encodeFilters,
  type ListFilters,
  OBJECT_TYPES,
  periodError,
  statusChoices,
  type Tab,
} from './rules.ts';

const OBJECT_LABEL = {
  u: 'services.objectUnit',
  d: 'services.objectDriver',
  t: 'services.objectTrailer',
} as const;
const PERIOD_ERROR = {
  invalid: 'controls.invalid',
  order: 'services.periodOrder',
  tooLong: 'services.periodTooLong',
} as const;

/**
 * The filters of /services above the table, all kept in the URL: the archive period (from/to), object
 * type, unit types (units only, at most 5), unit tag and status.
 */
export function ListToolbar({
  tab,
  filters,
  period,
  dateFormat,
  tags = [],
}: {
  tab: Tab;
  filters: ListFilters;
  period: { from: string; to: string };
  dateFormat: string;
  /** The tags of the fleet's units (docs/product.md "The vehicle profile"); no filter without any. */
  tags?: readonly string[];
}) {
  const { t } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const [, patchParams] = useUrlParams();
  const badPeriod = periodError(period.from, period.to);
  const setFilters = (patch: Partial<ListFilters>) =>
    patchParams((p) => encodeFilters(p, { ...decodeFilters(p, tab), ...patch }));
  const setPeriod = (key: 'from' | 'to', value: string | null) =>
    patchParams((p) => {
      if (value) p.set(key, value);
      else p.delete(key);
      return p;
    });
  const statusOptions = statusChoices(tab).map((s) => ({ value: s, label: t(STATUS_LABEL[s]) }));

  return (
    <>
      {tab === 'archive' && (
        <>
          <DatePicker
            label={t('services.from')}
            value={period.from}
            onChange={(v) => setPeriod('from', v)}
            dateFormat={dateFormat}
            style={{ flex: '0 1 10rem' }}
            data-testid="services-from"
          />
          <DatePicker
            label={t('services.to')}
            value={period.to}
            onChange={(v) => setPeriod('to', v)}
            dateFormat={dateFormat}
            error={badPeriod && badPeriod !== 'invalid' ? t(PERIOD_ERROR[badPeriod]) : undefined}
            style={{ flex: '0 1 10rem' }}
            data-testid="services-to"
          />
        </>
      )}
      <Select
        label={t('services.objectKind')}
        options={OBJECT_TYPES.map((o) => ({ value: o, label: t(OBJECT_LABEL[o]) }))}
        value={filters.object}
        clearable
        searchable={false}
        onChange={(v) => {
          const object = (v as ListFilters['object']) ?? null;
          // Unit types apply to units only; the hidden control must not keep filtering.
          setFilters(object === 'd' || object === 't' ? { object, unitTypes: [], tag: null } : { object });
        }}
        style={{ flex: '0 1 10rem' }}
        data-testid="services-object-kind"
      />
      {(filters.object === null || filters.object === 'u') && (
        <UnitTypeFilter
          label={t('intervals.unitType')}
          types={auth?.unit_types ?? []}
          value={filters.unitTypes}
          onChange={(unitTypes) => setFilters({ unitTypes })}
          style={{ flex: '1 1 12rem', maxWidth: '20rem' }}
          data-testid="services-unit-types"
        />
      )}
      {(filters.object === null || filters.object === 'u') && tags.length > 0 && (
        <Select
          label={t('vehicle.tagFilter')}
          options={tags.map((tag) => ({ value: tag, label: tag }))}
          value={filters.tag}
          clearable
          onChange={(v) => setFilters({ tag: v ?? null })}
          style={{ flex: '0 1 10rem' }}
          data-testid="services-tag"
        />
      )}
      {statusOptions.length > 0 && (
        <Select
          label={t('services.status')}
          options={statusOptions}
          value={filters.status}
          clearable
          searchable={false}
          onChange={(v) => setFilters({ status: (v as ListFilters['status']) ?? null })}
          style={{ flex: '0 1 10rem' }}
          data-testid="services-status"
        />
      )}
    </>
  );
}
