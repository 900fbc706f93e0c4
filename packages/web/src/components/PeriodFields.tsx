import { useTranslation } from 'react-i18next';
import {
  PERIOD_KINDS,
  type Period,
  type PeriodKind,
  periodError,
  withDay,
  withKind,
} from '../lib/periods.ts';
import { DatePicker } from './DatePicker.tsx';
import { Select } from './Select.tsx';

const PERIOD_LABEL: Record<PeriodKind, string> = {
  week: 'objects.period_week',
  month: 'objects.period_month',
  quarter: 'objects.period_quarter',
  year: 'objects.period_year',
  m3: 'fuel.period_m3',
  m6: 'fuel.period_m6',
  m12: 'fuel.period_m12',
  custom: 'fuel.period_custom',
};

export interface PeriodFieldsProps {
  period: Period;
  /** The fleet's today, YYYY-MM-DD: where a named period ends. */
  today: string;
  dateFormat: string;
  onChange: (period: Period) => void;
  /** Test ids `${testIdPrefix}-period`, `-from` and `-to`. */
  testIdPrefix: string;
}

/**
 * The period selector of spec §9 "Time ranges" (week, month, quarter, year, 3/6/12 months, custom) with
 * the first and last day of a custom one, its error (reversed or longer than 366 days) under the last day.
 * A fragment: the caller's toolbar lays the fields out and may add its own beside them.
 */
export function PeriodFields({ period, today, dateFormat, onChange, testIdPrefix }: PeriodFieldsProps) {
  const { t } = useTranslation();
  const bad = periodError(period.from, period.to);
  const setDay = (key: 'from' | 'to', value: string | null) => value && onChange(withDay(period, key, value));
  return (
    <>
      <Select
        label={t('objects.period')}
        options={PERIOD_KINDS.map((k) => ({ value: k, label: t(PERIOD_LABEL[k]) }))}
        value={period.kind}
        searchable={false}
        allowDeselect={false}
        onChange={(v) => v && onChange(withKind(period, v as PeriodKind, today))}
        style={{ flex: '0 1 11rem' }}
        data-testid={`${testIdPrefix}-period`}
      />
      {period.kind === 'custom' && (
        <>
          <DatePicker
            label={t('services.from')}
            value={period.from}
            onChange={(v) => setDay('from', v)}
            dateFormat={dateFormat}
            style={{ flex: '0 1 10rem' }}
            data-testid={`${testIdPrefix}-from`}
          />
          <DatePicker
            label={t('services.to')}
            value={period.to}
            onChange={(v) => setDay('to', v)}
            dateFormat={dateFormat}
            error={bad ? t(bad === 'order' ? 'services.periodOrder' : 'services.periodTooLong') : undefined}
            style={{ flex: '0 1 10rem' }}
            data-testid={`${testIdPrefix}-to`}
          />
        </>
      )}
    </>
  );
}
