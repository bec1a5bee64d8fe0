// The map bench page: the real DepartmentMap over the build's geodata. window.mapBench times the
// main thread's work of one frame (from the frame's start to the task after its rendering) for a
// first draw, a redraw on new counts, a hover and a change of selection.
import { useLayoutEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { DepartmentCode } from '../../../src/api/productions/contract';
import { choroplethClasses } from '../../../src/map/classes';
import { DepartmentMap } from '../../../src/map/DepartmentMap';
import { mapGeometry } from '../../../src/map/geometry';
import '../../../src/styles/base.css';

const codes = mapGeometry().departments.map((d) => d.code);
let seed = 1;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const someCounts = () => new Map(codes.map((c) => [c, random() < 0.1 ? 0 : Math.floor(random() * 400)] as [DepartmentCode, number]));

/** The bench's hands on the component's state, set once it is mounted. */
const handles: { setCounts: (c: Map<DepartmentCode, number>) => void; setSelected: (s: Set<DepartmentCode>) => void } = {
  setCounts: () => {},
  setSelected: () => {},
};
const noop = () => {};
const label = (code: DepartmentCode) => code;
const tooltip = (code: DepartmentCode) => ({ title: code, lines: ['12 leads'] });

function Bench({ initial }: { initial: Map<DepartmentCode, number> }) {
  const [counts, setC] = useState(initial);
  const [selected, setS] = useState(new Set<DepartmentCode>(['FR-30', 'FR-34']));
  useLayoutEffect(() => {
    handles.setCounts = setC;
    handles.setSelected = setS;
  }, []);
  const classes = choroplethClasses([...counts.values()], 6);
  return (
    <DepartmentMap
      label="Carte"
      descriptionId="d"
      counts={counts}
      classes={classes}
      colors={new Map([['FR-13', '#dc2626']])}
      selected={selected}
      active="FR-30"
      optionLabel={label}
      tooltip={tooltip}
      frameLabel={label}
      onPointer={noop}
      onKeyDown={noop}
    />
  );
}

/** Runs `work` at the start of a frame; resolves with the time until the task after that frame's rendering. */
const frame = (work: () => void) =>
  new Promise<number>((resolve) =>
    requestAnimationFrame((start) => {
      work();
      setTimeout(() => resolve(performance.now() - start));
    }),
  );

let root: Root | null = null;
const host = document.getElementById('root')!;

declare global {
  interface Window {
    mapBench: {
      ready: boolean;
      firstDraw(): Promise<number>;
      redraw(): Promise<number>;
      hover(i: number): Promise<number>;
      select(i: number): Promise<number>;
    };
  }
}

window.mapBench = {
  ready: true,
  firstDraw: () =>
    frame(() => {
      root?.unmount();
      root = createRoot(host);
      flushSync(() => root!.render(<Bench initial={someCounts()} />));
    }),
  redraw: () => frame(() => flushSync(() => handles.setCounts(someCounts()))),
  hover: (i) =>
    frame(() => {
      const path = host.querySelectorAll('.map-dep')[i % codes.length];
      const box = path.getBoundingClientRect();
      path.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 }));
    }),
  select: (i) => frame(() => flushSync(() => handles.setSelected(new Set([codes[i % codes.length], codes[(i * 7) % codes.length]])))),
};
