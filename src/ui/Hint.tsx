import type { ReactElement } from 'react';
import { Tooltip, TooltipTrigger } from 'react-aria-components';

/** A tooltip naming an icon button for mouse users (its aria-label already names it for the others). */
export function Hint({ label, children }: { label: string; children: ReactElement }) {
  return (
    <TooltipTrigger delay={400} closeDelay={0}>
      {children}
      <Tooltip className="tooltip" placement="bottom" offset={6}>
        {label}
      </Tooltip>
    </TooltipTrigger>
  );
}
