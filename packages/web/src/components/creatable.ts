import { canCreate, type SelectOption } from './search.ts';

/** What leaving a creatable select (blur, Tab) does with the text typed into it. */
export type BlurOutcome =
  | { kind: 'keep' }
  | { kind: 'revert' }
  | { kind: 'pick'; value: string; label: string }
  | { kind: 'create'; text: string };

/**
 * Spec §2/§5 creatable select: text typed and left is kept, never dropped. The text of the
 * chosen option changes nothing; text equal to an option (case-insensitive, by label or value) picks it;
 * other non-empty text is the new value, as if 'Create "{text}"' had been picked; empty text shows the
 * chosen option again.
 */
export function blurOutcome(
  text: string,
  options: readonly SelectOption[],
  selected: SelectOption | null,
): BlurOutcome {
  if (selected && text === selected.label) return { kind: 'keep' };
  const wanted = text.trim();
  if (wanted === '') return { kind: 'revert' };
  if (canCreate(wanted, options)) return { kind: 'create', text: wanted };
  const lower = wanted.toLowerCase();
  const match = options.find(
    (o) => !o.isDisabled && (o.value.toLowerCase() === lower || o.label.trim().toLowerCase() === lower),
  );
  if (!match) return { kind: 'revert' };
  if (selected && match.value === selected.value) return { kind: 'revert' };
  return { kind: 'pick', value: match.value, label: match.label };
}
