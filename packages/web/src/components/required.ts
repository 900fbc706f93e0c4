/** Spec §5 "Required input": which alarm, if any, the popup shows. */

export type Alarm = { kind: 'required' } | { kind: 'invalid'; text: string | null } | null;

export interface AlarmState {
  value: string;
  /** The user has left the field, or a submit was attempted. */
  touched: boolean;
  /** The caller flags the value as invalid. */
  showInvalid?: boolean;
  /** Text of the invalid alarm; the translated 'Invalid value' when absent. */
  alarmText?: string;
}

/** 'Required field' once touched and empty; otherwise the invalid alarm when showInvalid is set. */
export function alarmOf({ value, touched, showInvalid = false, alarmText }: AlarmState): Alarm {
  if (showInvalid) return { kind: 'invalid', text: alarmText?.trim() ? alarmText : null };
  if (touched && value.trim() === '') return { kind: 'required' };
  return null;
}
