import { BUILTIN_COMPONENT_KINDS, type ComponentState } from '@fleetkeep/core';
import { useTranslation } from 'react-i18next';

/** A kind's name: built-in kinds translated, the fleet's own as written. */
export function useKindLabel() {
  const { t } = useTranslation();
  return (kind: string) =>
    (BUILTIN_COMPONENT_KINDS as readonly string[]).includes(kind) ? t(`components.kind.${kind}`) : kind;
}

export const STATE_COLOR: Record<ComponentState, string> = {
  stock: 'blue',
  mounted: 'green',
  retired: 'gray',
};
