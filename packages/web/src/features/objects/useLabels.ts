import {
  formatMoney,
  formatMoneyRate,
  formatNumber,
  formatWhole,
  localDate,
  unitLabel,
} from '@fleetkeep/core';
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
    // Counters and remaining values are whole, in the user's locale (docs/product.md "Numbers, money and
    // times").
    /** A distance given in km, shown in the fleet unit, whole units. */
    const distance = (km: number) => `${formatWhole(kmToDisplay(km, miles), lang)} ${distanceUnit}`;
    const engineHours = (h: number) => `${formatWhole(h, lang)} ${engineHoursUnit}`;
    const days = (n: number) => `${formatNumber(n, { locale: lang })} ${unitLabel(lang, 'day', n)}`;
    const date = (unix: number | null | undefined) =>
      unix === null || unix === undefined ? '-' : dayjs(localDate(tz, unix)).locale(lang).format(dateFormat);
    /**
     * Money in the fleet's currency with its minor units; a rate (cost per km) with `decimals` fraction
     * digits at most, the currency text after it.
     */
    const money = (v: number, decimals?: number) =>
      decimals === undefined
        ? formatMoney(v, fleet?.cur ?? '', { locale: lang })
        : formatMoneyRate(v, fleet?.cur ?? '', lang, decimals);
    const remaining = (r: Remaining) => {
      const value =
        r.kind === 'mileage'
          ? `${formatWhole(r.amount, lang)} ${distanceUnit}`
          : r.kind === 'engineHours'
            ? `${formatWhole(r.amount, lang)} ${engineHoursUnit}`
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
