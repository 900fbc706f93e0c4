import { formatNumber, localDate, unitLabel } from '@fleetkeep/core';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { kmToDisplay } from '../../lib/distance.ts';
import { useSession } from '../../lib/session.ts';
import { UNKNOWN_TYPE, unitTypeKey } from '../../lib/unitTypes.ts';
import type { ObjectRecord } from './ObjectScreen.tsx';
import { type ObjectKind, type Period, periodRange, type Remaining } from './rules.ts';

export const KIND_LABEL: Record<ObjectKind, string> = {
  unit: 'objects.kindUnit',
  driver: 'objects.kindDriver',
  trailer: 'objects.kindTrailer',
};

/**
 * Display helpers of the object screens, in the fleet's units and the user's formats: distances in km or
 * miles (spec §9), engine hours as 'e.h.', dates in the user's date format on the fleet's calendar,
 * remaining values as 'In: X' / 'Overdue: X', unit type names (spec §3 "Vehicle types").
 */
export function useLabels() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === auth.fid);
  const miles = fleet?.ms === 1;
  const tz = fleet?.tz ?? 0;
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const lang = i18n.language;
  const unitTypes = auth?.unit_types;

  return useMemo(() => {
    const distanceUnit = unitLabel(lang, miles ? 'mile' : 'kilometer', 2);
    const engineHoursUnit = t('objects.engineHoursUnit');
    /** A distance given in km, shown in the fleet unit, whole units. */
    const distance = (km: number) =>
      `${formatNumber(kmToDisplay(km, miles), { decimals: 0 })} ${distanceUnit}`;
    const engineHours = (h: number) => `${formatNumber(h, { decimals: 1 })} ${engineHoursUnit}`;
    const days = (n: number) => `${formatNumber(n)} ${unitLabel(lang, 'day', n)}`;
    const date = (unix: number | null | undefined) =>
      unix === null || unix === undefined ? '-' : dayjs(localDate(tz, unix)).locale(lang).format(dateFormat);
    const money = (v: number, decimals = 2) =>
      `${formatNumber(v, { decimals })}${fleet?.cur ? ` ${fleet.cur}` : ''}`;
    const remaining = (r: Remaining) => {
      const value =
        r.kind === 'mileage'
          ? `${formatNumber(r.amount, { decimals: 0 })} ${distanceUnit}`
          : r.kind === 'engineHours'
            ? `${formatNumber(r.amount, { decimals: 1 })} ${engineHoursUnit}`
            : days(r.amount);
      return r.overdue ? t('objects.overdueBy', { value }) : t('objects.inValue', { value });
    };
    const typeName = (ut: number | null | undefined) => {
      if (ut === null || ut === undefined) return t('objects.typeUnknown');
      const n = unitTypes?.find((x) => x.id === ut)?.n;
      if (!n) return t('objects.typeUnknown');
      return i18n.exists(unitTypeKey(n)) ? t(unitTypeKey(n)) : n;
    };
    const typeOptions = [
      ...(unitTypes ?? []).map((ut) => ({ value: String(ut.id), label: typeName(ut.id) })),
      { value: UNKNOWN_TYPE, label: t('objects.typeUnknown') },
    ];
    return {
      miles,
      tz,
      distanceUnit,
      distance,
      engineHours,
      date,
      money,
      remaining,
      typeName,
      typeOptions,
    };
  }, [t, i18n, lang, miles, tz, dateFormat, unitTypes, fleet?.cur]);
}

/** What a tab that shows a period of the object (general, services) gets from the object screen. */
export interface PeriodTabProps {
  object: ObjectRecord;
  period: Period;
  onPeriod: (p: Period) => void;
}

/** The current fleet, the display helpers and the period's first and last fleet day. */
export function usePeriodTab(period: Period) {
  const session = useSession();
  const fid = session.status === 'authenticated' ? session.auth.fid : null;
  const labels = useLabels();
  const range = useMemo(() => periodRange(period, labels.tz, Date.now() / 1000), [period, labels.tz]);
  return { fid, labels, range };
}
