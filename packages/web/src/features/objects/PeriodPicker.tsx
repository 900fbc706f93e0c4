import { useTranslation } from 'react-i18next';
import { ButtonGroup } from '../../components/Toggles.tsx';
import { PERIODS, type Period } from './rules.ts';

/** The cost and archive period (spec §9 time ranges, ending today); kept in the URL by the page. */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  const { t } = useTranslation();
  return (
    <ButtonGroup
      label={t('objects.period')}
      items={(Object.keys(PERIODS) as Period[]).map((p) => ({ v: p, l: t(`objects.period_${p}`) }))}
      value={value}
      onChange={(v) => onChange(v as Period)}
      style={{ maxWidth: '28rem' }}
      data-testid="object-period"
    />
  );
}
