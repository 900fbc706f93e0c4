import {
  formatDistance,
  formatMoney,
  formatMoneyRate,
  formatNumber,
  localDate,
  unitLabel,
} from '@fleetkeep/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from '../../lib/client.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { saveSettings, useSession } from '../../lib/session.ts';
import { LAYOUT_SETTING, type Layout, normalizeLayout, sameLayout } from './rules.ts';

/** The current fleet and the display helpers of spec §9 "Number display" in its units and currency. */
export function useFleetFormat() {
  const { i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === auth.fid);
  const ms = fleet?.ms ?? 0;
  const cur = fleet?.cur ?? '';
  const tz = fleet?.tz ?? 0;
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const lang = i18n.language;
  return useMemo(
    () => ({
      fid: auth?.fid ?? null,
      miles: ms === 1,
      tz,
      /** The distance unit of "per 1 km / mile". */
      distanceUnit: unitLabel(lang, ms === 1 ? 'mile' : 'kilometer', 1),
      /**
       * Money in the user's language: with the currency's minor units, or for a rate (cost per km) with
       * `decimals` fraction digits at most and the currency text after it (docs/product.md).
       */
      money: (v: number, decimals?: number) =>
        decimals === undefined
          ? formatMoney(v, cur, { locale: lang })
          : formatMoneyRate(v, cur, lang, decimals),
      /** Money shortened with k/M/… for chart axes. */
      shortMoney: (v: number) => formatNumber(v, { decimals: 1, suffix: true, locale: lang }),
      number: (v: number) => formatNumber(v, { decimals: 0, locale: lang }),
      distance: (km: number) => formatDistance(km, ms, lang, { decimals: 0, locale: lang }),
      day: (text: string) => dayjs(text).locale(lang).format(dateFormat),
      date: (unix: number) => dayjs(localDate(tz, unix)).locale(lang).format(dateFormat),
    }),
    [auth?.fid, ms, cur, tz, dateFormat, lang],
  );
}

/**
 * GET /api/fleets/{fid}/statistics over the period (costs, distance, per-unit rows, days). Keyed under the
 * units' statistics key, so unit and service events refresh it; the previous figures stay meanwhile.
 */
export function useFleetStatistics(fid: number | null, from: string, to: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.statistics(fid ?? 0), 'fleet', from, to],
    queryFn: ({ signal }) => client.statistics.fleet(fid ?? 0, { from, to }, { signal }),
    enabled: fid !== null && enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * The user's layout of the sections (PRODUCT.md "Dashboard": remembered per user): read from the auth
 * reply's settings (`dashboard`), changed at once on screen and saved with PATCH /api/user/settings, one
 * save after another so the last change is the one kept.
 */
export function useLayout(): [Layout, (next: Layout) => void, boolean] {
  const session = useSession();
  const saved = session.status === 'authenticated' ? session.auth.model.s[LAYOUT_SETTING] : undefined;
  const fromSettings = useMemo(() => normalizeLayout(saved), [saved]);
  const [layout, setLayout] = useState(fromSettings);
  const [failed, setFailed] = useState(false);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef(0);

  useEffect(() => {
    // Another tab or session saved a layout: follow it unless a save of ours is on its way.
    if (pending.current === 0) setLayout((now) => (sameLayout(now, fromSettings) ? now : fromSettings));
  }, [fromSettings]);

  const change = useCallback((next: Layout) => {
    setLayout(next);
    pending.current++;
    queue.current = queue.current
      .then(() => saveSettings({ [LAYOUT_SETTING]: next }))
      .then(
        () => setFailed(false),
        () => setFailed(true),
      )
      .finally(() => {
        pending.current--;
      });
  }, []);
  return [layout, change, failed];
}
