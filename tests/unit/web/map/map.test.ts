import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDepartmentsTopology } from '../../../../scripts/geodata.mjs';
import type { DepartmentCode } from '../../../../src/api/productions/contract';
import { choroplethClasses, classOf } from '../../../../src/map/classes';
import { departmentsOf, neighbourGraph } from '../../../../src/map/departments';
import { foldText } from '../../../../src/shared/foldText';
import { neighbourInDirection, type Direction } from '../../../../src/map/navigation';
import { drawDepartments, isPrimary, layoutInsets, MAP_HEIGHT, MAP_WIDTH, overseasCodes, parisCodes, type Box } from '../../../../src/map/projection';

const topology = buildDepartmentsTopology();
const departments = departmentsOf(topology);
const graph = neighbourGraph(topology);
const insets = layoutInsets(departments);
const drawn = drawDepartments(departments, insets);
const positions = new Map(drawn.filter(isPrimary).map((d) => [d.department.code, d.centroid] as [DepartmentCode, [number, number]]));
// Directions follow geography: the mainland position of every department, the insets' for overseas.
const geographic = new Map(drawn.filter((d) => d.inset !== 'paris').map((d) => [d.department.code, d.centroid] as [DepartmentCode, [number, number]]));

describe('geodata', () => {
  it('holds the 101 departments with French names, Corsica as 2A and 2B, Alsace as 67 and 68, in under 100 kB gzip', () => {
    expect(departments).toHaveLength(101);
    const byCode = new Map(departments.map((d) => [d.code, d.name]));
    expect(byCode.get('FR-2A')).toBe('Corse-du-Sud');
    expect(byCode.get('FR-2B')).toBe('Haute-Corse');
    expect(byCode.get('FR-34')).toBe('Hérault');
    expect(byCode.get('FR-93')).toBe('Seine-Saint-Denis');
    expect(byCode.get('FR-973')).toBe('Guyane');
    expect(byCode.has('FR-67') && byCode.has('FR-68')).toBe(true);
    expect(byCode.has('FR-6AE' as DepartmentCode) || byCode.has('FR-PF' as DepartmentCode)).toBe(false);
    expect(gzipSync(JSON.stringify(topology)).length).toBeLessThan(100_000);
  });
});

describe('neighbour graph', () => {
  it('links the departments that share a border, both ways', () => {
    expect(graph.get('FR-30')).toEqual(['FR-07', 'FR-12', 'FR-13', 'FR-34', 'FR-48', 'FR-84']);
    expect(graph.get('FR-75')).toEqual(['FR-92', 'FR-93', 'FR-94']);
    expect(graph.get('FR-2A')).toEqual(['FR-2B']);
    expect(graph.get('FR-67')).toEqual(['FR-54', 'FR-57', 'FR-68', 'FR-88']);
    for (const code of overseasCodes) expect(graph.get(code)).toEqual([]);
    for (const [code, list] of graph) for (const other of list) expect(graph.get(other), `${other} → ${code}`).toContain(code);
  });

  it('gives every mainland department at least one neighbour (one landmass, no gap in the outlines)', () => {
    const lonely = [...graph].filter(([code, list]) => list.length === 0 && !overseasCodes.includes(code) && !['FR-2A', 'FR-2B'].includes(code));
    expect(lonely).toEqual([]);
  });
});

describe('arrow keys', () => {
  const go = (from: DepartmentCode, direction: Direction) => neighbourInDirection(from, direction, graph, geographic);

  it('move to the bordering department in that direction', () => {
    // From Gard: Vaucluse east, Aveyron west, Ardèche north, Hérault south-west (the sea is south).
    expect(go('FR-30', 'right')).toBe('FR-84');
    expect(go('FR-30', 'left')).toBe('FR-12');
    expect(go('FR-30', 'down')).toBe('FR-34');
    expect(go('FR-30', 'up')).toBe('FR-07');
    expect(go('FR-13', 'left')).toBe('FR-30');
    expect(go('FR-34', 'right')).toBe('FR-30');
    expect(go('FR-2A', 'up')).toBe('FR-2B');
    expect(go('FR-2B', 'down')).toBe('FR-2A');
  });

  it('cross the sea to the nearest department in that direction when no border is there', () => {
    expect(go('FR-2B', 'up')).toMatch(/^FR-(06|83|04)$/);
    expect(go('FR-29', 'left')).toMatch(/^FR-97/);
    expect(go('FR-972', 'right')).not.toBeNull();
  });

  it('reach every department from Gard', () => {
    const seen = new Set<DepartmentCode>(['FR-30']);
    const queue: DepartmentCode[] = ['FR-30'];
    while (queue.length) {
      const code = queue.shift()!;
      for (const direction of ['left', 'right', 'up', 'down'] as const) {
        const next = go(code, direction);
        if (next && !seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    expect(seen.size).toBe(101);
  });
});

describe('insets', () => {
  const inside = (box: Box, [x, y]: [number, number]) => x >= box[0][0] - 0.5 && x <= box[1][0] + 0.5 && y >= box[0][1] - 0.5 && y <= box[1][1] + 0.5;
  const overlap = (a: Box, b: Box) => a[0][0] < b[1][0] && b[0][0] < a[1][0] && a[0][1] < b[1][1] && b[0][1] < a[1][1];

  it('lay the frames inside the map without overlapping: overseas and Paris in a column beside mainland France', () => {
    expect(insets.map((i) => i.id)).toEqual(['mainland', 'paris', ...overseasCodes]);
    for (const inset of insets)
      expect(
        inside(
          [
            [0, 0],
            [MAP_WIDTH, MAP_HEIGHT],
          ],
          inset.box[0] as [number, number],
        ) &&
          inside(
            [
              [0, 0],
              [MAP_WIDTH, MAP_HEIGHT],
            ],
            inset.box[1] as [number, number],
          ),
      ).toBe(true);
    for (let i = 0; i < insets.length; i++)
      for (let j = i + 1; j < insets.length; j++) expect(overlap(insets[i].box, insets[j].box), `${insets[i].id} × ${insets[j].id}`).toBe(false);
    const mainland = insets[0].box;
    for (const inset of insets.slice(1)) expect(inset.box[1][0]).toBeLessThan(mainland[0][0]);
  });

  it('project each department inside its frame, overseas ones at their own scale', () => {
    for (const inset of insets) {
      for (const d of drawn.filter((x) => x.inset === inset.id)) {
        const [[x0, y0], [x1, y1]] = [d.centroid, d.centroid];
        expect(inside(inset.box, [x0, y0]) && inside(inset.box, [x1, y1]), `${d.department.code} in ${inset.id}`).toBe(true);
      }
    }
    // Réunion (2,500 km²) fills its frame: far larger there than Gard (5,900 km²) on the mainland.
    const area = (code: string, inset: string) => {
      const d = drawn.find((x) => x.department.code === code && x.inset === inset)!;
      const nums = d.d.match(/-?\d+(\.\d+)?/g)!.map(Number);
      const xs = nums.filter((_, i) => i % 2 === 0);
      const ys = nums.filter((_, i) => i % 2 === 1);
      return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
    };
    expect(area('FR-974', 'FR-974')).toBeGreaterThan(area('FR-30', 'mainland'));
    // Corsica stays on the mainland frame, south-east of Provence.
    expect(geographic.get('FR-2A')![0]).toBeGreaterThan(geographic.get('FR-13')![0]);
    expect(geographic.get('FR-2A')![1]).toBeGreaterThan(geographic.get('FR-13')![1]);
  });

  it('draw Paris and its inner suburbs twice, clickable in their enlarged inset', () => {
    for (const code of parisCodes) {
      const shapes = drawn.filter((d) => d.department.code === code);
      expect(shapes.map((s) => s.inset)).toEqual(['mainland', 'paris']);
      expect(shapes.filter(isPrimary).map((s) => s.inset)).toEqual(['paris']);
    }
    expect(positions.size).toBe(101);
  });
});

describe('choropleth classes', () => {
  it('cut the counts into at most six ranges, whole and contiguous', () => {
    const counts = Array.from({ length: 90 }, (_, i) => (i * 37) % 500);
    const classes = choroplethClasses(counts);
    expect(classes.length).toBeGreaterThanOrEqual(5);
    expect(classes.length).toBeLessThanOrEqual(6);
    expect(classes[0].lo).toBe(Math.min(...counts.filter((c) => c > 0)));
    expect(classes.at(-1)!.hi).toBe(Math.max(...counts));
    for (let i = 1; i < classes.length; i++) expect(classes[i].lo).toBe(classes[i - 1].hi + 1);
    for (const c of counts) if (c > 0) expect(classes[classOf(c, classes)].lo).toBeLessThanOrEqual(c);
    expect(classOf(0, classes)).toBe(-1);
  });

  it('make fewer classes than distinct counts, none without leads', () => {
    expect(choroplethClasses([0, 0])).toEqual([]);
    expect(choroplethClasses([3, 3, 3])).toEqual([{ lo: 3, hi: 3 }]);
    expect(choroplethClasses([1, 2, 2, 9])).toEqual([
      { lo: 1, hi: 1 },
      { lo: 2, hi: 8 },
      { lo: 9, hi: 9 },
    ]);
  });

  it('fold names for search', () => {
    expect(foldText('Hérault')).toBe('herault');
    expect(foldText('FR-2A')).toBe('fr-2a');
  });
});
