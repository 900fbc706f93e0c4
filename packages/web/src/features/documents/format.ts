import { formatFleetDate, formatMoney } from '@fleetkeep/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session.ts';

/** The fleet's zone, currency and the user's date format, for the documents screens. */
export interface DocumentFormat {
  fid: number | null;
  tz: number;
  dateFormat: string;
  date: (unix: number | null) => string;
  money: (value: number | null) => string;
}

export function useDocumentFormat(): DocumentFormat {
  const { i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === auth.fid);
  const tz = fleet?.tz ?? 0;
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const locale = i18n.language;
  const fid = auth?.fid ?? null;
  return useMemo(
    () => ({
      fid,
      tz,
      dateFormat,
      date: (unix: number | null) => (unix === null ? '' : formatFleetDate(unix, tz, dateFormat, locale)),
      money: (value: number | null) => (value === null ? '' : formatMoney(value, currency, { locale })),
    }),
    [fid, tz, currency, dateFormat, locale],
  );
}
