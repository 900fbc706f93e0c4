import {
  formatFleetDate as fleetDate,
  formatFleetDateTime,
  formatMoney,
  formatNumber,
} from '@fleetkeep/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session.ts';

/** The fleet's clock, currency and the user's formats, for the work-orders screens. */
export interface FleetFormat {
  date: (unix: number) => string;
  dateTime: (unix: number) => string;
  money: (value: number) => string;
  number: (value: number) => string;
  tz: number;
}

export function useFleetFormat(): FleetFormat {
  const { i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === auth.fid);
  const tz = fleet?.tz ?? 0;
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const locale = i18n.language;
  return useMemo(
    () => ({
      tz,
      date: (unix: number) => fleetDate(unix, tz, dateFormat, locale),
      dateTime: (unix: number) => formatFleetDateTime(unix, tz, dateFormat, timeFormat, locale),
      money: (value: number) => formatMoney(value, currency, { locale }),
      number: (value: number) => formatNumber(value, { locale, decimals: 1 }),
    }),
    [tz, currency, dateFormat, timeFormat, locale],
  );
}

export const formatFleetDate = (fmt: FleetFormat, unix: number) => fmt.date(unix);
