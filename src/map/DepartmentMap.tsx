import { select } from 'd3-selection';
import { memo, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import type { DepartmentCode } from '../api/productions/contract';
import { classOf, type ChoroplethClass } from './classes';
import { mapGeometry } from './geometry';
import { MAP_HEIGHT, MAP_WIDTH, parisCodes } from './projection';
import './map.css';

/** Sequential blues, light to dark, for 1 to 7 classes (ColorBrewer Blues). */
const blues = ['#deebf7', '#c6dbef', '#9ecae1', '#6baed6', '#4292c6', '#2171b5', '#08519c'];
export const NO_LEAD_COLOR = '#f4f5f7';

/** The class colours: as many blues as classes, spread over the whole range. */
export function classColors(count: number): string[] {
  if (count <= 1) return count === 1 ? [blues[3]] : [];
  return Array.from({ length: count }, (_, i) => blues[Math.round((i * (blues.length - 1)) / (count - 1))]);
}

export type PointerMode = 'set' | 'toggle' | 'note';

export interface TooltipContent {
  title: string;
  lines: string[];
}

interface Props {
  label: string;
  descriptionId: string;
  counts: ReadonlyMap<DepartmentCode, number>;
  classes: readonly ChoroplethClass[];
  /** A layer's own fill of each department ('#rrggbb' or 'url(#pattern)'), drawn instead of the choropleth. */
  fills?: ReadonlyMap<DepartmentCode, string>;
  colors: ReadonlyMap<DepartmentCode, string>;
  selected: ReadonlySet<DepartmentCode>;
  active: DepartmentCode;
  /** The name each department is read out with (name, code, count, note). */
  optionLabel: (code: DepartmentCode) => string;
  tooltip: (code: DepartmentCode) => TooltipContent;
  frameLabel: (id: string) => string;
  onPointer: (code: DepartmentCode, mode: PointerMode) => void;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  focusRef?: React.Ref<HTMLDivElement>;
}

const optionId = (code: string) => `map-dep-${code}`;

/**
 * The production map, drawn by D3 once (outlines, frames, labels), then updated in place: the
 * choropleth fills when the counts change, the colour and selection overlays when they change.
 * React only owns the container, so hovering or moving the focus never re-renders a department.
 * For assistive technology the map is a multi-select listbox: one Tab stop, the focused
 * department as its active descendant.
 */
export const DepartmentMap = memo(function DepartmentMap(p: Props) {
  const svgRef = useRef<SVGGElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement | null>(null);
  const { drawn } = mapGeometry();
  const latest = useRef(p);
  const shown = useRef<{ code: DepartmentCode; at: { x: number; y: number } | null } | null>(null);
  /** An arrow key was pressed on the map: the next focused department gets the tooltip. */
  const moved = useRef(false);
  latest.current = p;

  // Outlines, frames and labels: once.
  useLayoutEffect(() => {
    const svg = select(svgRef.current!);
    const { insets } = mapGeometry();
    const frames = svg.append('g').attr('class', 'map-frames').attr('aria-hidden', 'true');
    for (const inset of insets.slice(1)) {
      const [[x0, y0], [x1, y1]] = inset.box;
      frames
        .append('rect')
        .attr('x', x0 - 4)
        .attr('y', y0 - 4)
        .attr('width', x1 - x0 + 8)
        .attr('height', y1 - y0 + 8 + (inset.id === 'paris' ? 0 : 14))
        .attr('rx', 4);
      frames
        .append('text')
        .attr('class', 'map-frame-label')
        .attr('data-frame', inset.id)
        .attr('x', x0)
        .attr('y', inset.id === 'paris' ? y1 - 2 : y1 + 12);
    }
    const fills = svg.append('g').attr('class', 'map-fills').attr('role', 'none');
    for (const d of drawn) {
      const path = fills.append('path').attr('class', 'map-dep').attr('d', d.d).attr('data-code', d.department.code);
      if (d.inset !== 'mainland' || !parisCodes.includes(d.department.code)) {
        path.attr('id', optionId(d.department.code)).attr('role', 'option').attr('aria-selected', 'false');
      } else path.attr('aria-hidden', 'true');
    }
    svg.append('g').attr('class', 'map-colors').attr('aria-hidden', 'true');
    svg.append('g').attr('class', 'map-selection').attr('aria-hidden', 'true');
    svg.append('g').attr('class', 'map-active').attr('aria-hidden', 'true');
    const labels = svg.append('g').attr('class', 'map-labels').attr('aria-hidden', 'true');
    for (const d of drawn) {
      // Paris and its inner suburbs are too small to label on the mainland: their inset shows them.
      if (d.inset === 'mainland' && parisCodes.includes(d.department.code)) continue;
      labels.append('text').attr('x', d.centroid[0]).attr('y', d.centroid[1]).text(d.department.code.slice(3));
    }
    return () => {
      svg.selectAll('*').remove();
    };
  }, [drawn]);

  // Texts that follow the language and the figures: frame names, option names.
  const { frameLabel, optionLabel } = p;
  useLayoutEffect(() => {
    const svg = select(svgRef.current!);
    svg.selectAll<SVGTextElement, unknown>('.map-frame-label').each(function () {
      this.textContent = frameLabel(this.dataset.frame!);
    });
    svg.selectAll<SVGPathElement, unknown>('path[role=option]').each(function () {
      this.setAttribute('aria-label', optionLabel(this.dataset.code as DepartmentCode));
    });
  }, [frameLabel, optionLabel]);

  // The choropleth, or the layer's fills.
  useLayoutEffect(() => {
    const colors = classColors(p.classes.length);
    select(svgRef.current!)
      .selectAll<SVGPathElement, unknown>('.map-dep')
      .each(function () {
        const code = this.dataset.code as DepartmentCode;
        if (p.fills) return void this.setAttribute('fill', p.fills.get(code) ?? NO_LEAD_COLOR);
        const i = classOf(p.counts.get(code) ?? 0, p.classes);
        this.setAttribute('fill', i < 0 ? NO_LEAD_COLOR : colors[i]);
      });
  }, [p.counts, p.classes, p.fills]);

  // Saved colours: an inner border of that colour over the choropleth.
  useLayoutEffect(() => {
    const layer = select(svgRef.current!).select('.map-colors');
    layer.selectAll('*').remove();
    for (const d of drawn) {
      const color = p.colors.get(d.department.code);
      if (color) layer.append('path').attr('d', d.d).attr('stroke', color);
    }
  }, [p.colors, drawn]);

  // The selection: hatched and outlined, so it never rests on colour alone.
  useLayoutEffect(() => {
    const svg = select(svgRef.current!);
    const layer = svg.select('.map-selection');
    layer.selectAll('*').remove();
    for (const d of drawn) if (p.selected.has(d.department.code)) layer.append('path').attr('d', d.d);
    svg.selectAll<SVGPathElement, unknown>('path[role=option]').each(function () {
      this.setAttribute('aria-selected', String(p.selected.has(this.dataset.code as DepartmentCode)));
    });
  }, [p.selected, drawn]);

  // The keyboard focus. The tooltip follows it only when the keys moved it: never as the screen
  // opens, takes the focus or gets its selection (at 390 px it covered a third of the map).
  useLayoutEffect(() => {
    const layer = select(svgRef.current!).select('.map-active');
    layer.selectAll('*').remove();
    for (const d of drawn) if (d.department.code === p.active) layer.append('path').attr('d', d.d);
    if (moved.current && hostRef.current?.matches(':focus')) showTip(p.active, null);
    moved.current = false;
  }, [p.active, drawn]);

  function showTip(code: DepartmentCode, at: { x: number; y: number } | null) {
    const tip = tipRef.current;
    const host = hostRef.current;
    if (!tip || !host) return;
    shown.current = { code, at };
    const content = latest.current.tooltip(code);
    const title = tip.firstElementChild as HTMLElement;
    title.textContent = content.title;
    while (tip.childNodes.length > 1) tip.lastChild!.remove();
    for (const line of content.lines) {
      const div = document.createElement('div');
      div.textContent = line;
      tip.append(div);
    }
    const box = host.getBoundingClientRect();
    let point = at;
    if (!point) {
      const shape = host.querySelector(`#${optionId(code)}`);
      const r = shape?.getBoundingClientRect();
      point = r ? { x: r.right, y: r.top + r.height / 2 } : { x: box.left, y: box.top };
    }
    const x = Math.min(point.x - box.left + 14, box.width - 220);
    tip.style.transform = `translate(${Math.max(0, x)}px, ${point.y - box.top + 14}px)`;
    tip.hidden = false;
  }
  const hideTip = () => {
    if (tipRef.current) tipRef.current.hidden = true;
  };
  // A tooltip on screen follows the figures and notes as they arrive.
  useLayoutEffect(() => {
    if (tipRef.current && !tipRef.current.hidden && shown.current) showTip(shown.current.code, shown.current.at);
  }, [p.tooltip]);

  const codeAt = (target: EventTarget | null) =>
    target instanceof Element ? (target.closest('[data-code]')?.getAttribute('data-code') as DepartmentCode | null) : null;

  return (
    <div
      ref={(el) => {
        hostRef.current = el;
        if (typeof p.focusRef === 'function') p.focusRef(el);
        else if (p.focusRef) (p.focusRef as React.RefObject<HTMLDivElement | null>).current = el;
      }}
      className="map-host"
      role="listbox"
      aria-multiselectable="true"
      aria-label={p.label}
      aria-describedby={p.descriptionId}
      aria-activedescendant={optionId(p.active)}
      tabIndex={0}
      onKeyDown={(e) => {
        moved.current = e.key.startsWith('Arrow');
        p.onKeyDown(e);
      }}
      onBlur={() => {
        moved.current = false;
        hideTip();
      }}
      onPointerMove={(e) => {
        const code = codeAt(e.target);
        if (code) showTip(code, { x: e.clientX, y: e.clientY });
        else hideTip();
      }}
      onPointerLeave={hideTip}
      onClick={(e) => {
        const code = codeAt(e.target);
        if (!code) return;
        p.onPointer(code, e.shiftKey ? 'note' : e.ctrlKey || e.metaKey ? 'toggle' : 'set');
      }}
    >
      <svg viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`} role="none" className="map-svg">
        <defs>
          <pattern id="map-hatch" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="7" stroke="#111827" strokeWidth="2.2" strokeOpacity="0.55" />
          </pattern>
        </defs>
        {/* D3's: everything drawn inside this group. */}
        <g ref={svgRef} role="none" />
      </svg>
      <div ref={tipRef} className="map-tooltip" hidden aria-hidden="true">
        <strong />
      </div>
    </div>
  );
});
