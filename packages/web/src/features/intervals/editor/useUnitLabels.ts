import { formatWhole, unitLabel } from '@fleetkeep/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { remainingLabel } from './remaining.ts';

export interface UnitLabels {
  distance: string;
  engineHours: string;
  days: string;
  /** 'In: 7,500 km' / 'Overdue: 100 e.h.' (spec §9), whole and in the user's language (docs/product.md). */
  remaining: (value: number, unit: string) => string;
}

/** Localised unit labels of the fleet: km or miles (`ms === 1`), engine hours, days. */
export function useUnitLabels(miles: boolean): UnitLabels {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return useMemo(
    () => ({
      distance: unitLabel(lang, miles ? 'mile' : 'kilometer', 2, 'short'),
      engineHours: t('intervals.engineHoursUnit'),
      days: unitLabel(lang, 'day', 2, 'narrow'),
      remaining: (value: number, unit: string) => {
        const { key, amount } = remainingLabel(value);
        const text = `${formatWhole(amount, lang)} ${unit}`;
        return key === 'in'
          ? t('intervalEditor.in', { value: text })
          : t('intervalEditor.overdue', { value: text });
      },
    }),
    [lang, miles, t],
  );
}
