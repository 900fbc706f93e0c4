import {
  formatMoney,
  formatMoneyRate,
  formatNumber,
  formatWhole,
  KM_PER_MILE,
  localDate,
  unitLabel,
} from '@fleetkeep/core';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { kmToDisplay } from '../../lib/distance.ts';
import { useSession } from '../../lib/session.ts';

/** Distances in the fleet's unit, money in its currency, dates on its calendar, for the components screens. */
export function useComponentFormat() {
  const { i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === auth.fid);
  const miles = fleet?.ms === 1;
  const tz = fleet?.tz ?? 0;
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const lang = i18n.language;
  return useMemo(() => {
    const unit = unitLabel(lang, miles ? 'mile' : 'kilometer', 2);
    return {
      miles,
      distanceUnit: unit,
      distance: (km: number) => `${formatWhole(kmToDisplay(km, miles), lang)} ${unit}`,
      odometer: (km: number) => formatWhole(kmToDisplay(km, miles), lang),
      money: (v: number) => formatMoney(v, currency, { locale: lang }),
      /** Cost per km (or per mile), 3 decimals at most. */
      perDistance: (perKm: number | null) =>
        perKm === null
          ? '-'
          : `${formatMoneyRate(miles ? perKm * KM_PER_MILE : perKm, currency, lang, 3)}/${unit}`,
      depth: (mm: number | null) =>
        mm === null ? '-' : `${formatNumber(mm, { locale: lang, decimals: 1 })} mm`,
      date: (unix: number | null) =>
        unix === null ? '-' : dayjs(localDate(tz, unix)).locale(lang).format(dateFormat),
    };
  }, [miles, tz, currency, dateFormat, lang]);
}

export type ComponentFormat = ReturnType<typeof useComponentFormat>;
