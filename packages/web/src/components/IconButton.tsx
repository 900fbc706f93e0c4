import { ActionIcon, type ActionIconProps, Tooltip } from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';

export interface IconButtonProps
  extends ActionIconProps,
    Omit<ComponentPropsWithoutRef<'button'>, 'color' | 'style' | 'aria-label'> {
  /** Required: the button has no text, so this is its name for screen readers and its tooltip. */
  'aria-label': string;
  children: ReactNode;
  /** Tooltip text; the aria-label when absent. */
  tooltip?: string;
}

/** Spec §2: an icon button, always named, with a tooltip. */
export function IconButton({ tooltip, children, variant = 'subtle', ...rest }: IconButtonProps) {
  return (
    <Tooltip
      label={tooltip ?? rest['aria-label']}
      withArrow
      openDelay={300}
      events={{ hover: true, focus: true, touch: false }}
    >
      <ActionIcon variant={variant} {...rest}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
