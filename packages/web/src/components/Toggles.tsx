import {
  type CheckboxProps,
  Input,
  Checkbox as MantineCheckbox,
  Switch as MantineSwitch,
  SegmentedControl,
  type SegmentedControlProps,
  type SwitchProps,
} from '@mantine/core';
import { useId } from 'react';

/** Spec §2 switch. */
export function Switch(props: SwitchProps) {
  return <MantineSwitch {...props} />;
}

/** Spec §2 checkbox. */
export function Checkbox(props: CheckboxProps) {
  return <MantineCheckbox {...props} />;
}

/** Spec §3 button-group item: value v, label l, optional icon class. */
export interface ButtonGroupItem {
  v: string;
  l: string;
  iconClass?: string;
}

export interface ButtonGroupProps extends Omit<SegmentedControlProps, 'data' | 'value' | 'onChange'> {
  items: readonly ButtonGroupItem[];
  value: string;
  onChange: (value: string) => void;
  /** The group's visible label, which also names it for screen readers. */
  label: string;
}

/**
 * Spec §2 button group: one of a few choices, as a radio group (arrow keys move between the choices).
 */
export function ButtonGroup({ items, value, onChange, label, ...rest }: ButtonGroupProps) {
  const id = useId();
  return (
    <div>
      <Input.Label id={id} component="div" display="block">
        {label}
      </Input.Label>
      <SegmentedControl
        aria-labelledby={id}
        fullWidth
        {...rest}
        value={value}
        onChange={onChange}
        data={items.map((item) => ({
          value: item.v,
          label: item.iconClass ? (
            <span>
              <span className={item.iconClass} aria-hidden="true" /> {item.l}
            </span>
          ) : (
            item.l
          ),
        }))}
      />
    </div>
  );
}
