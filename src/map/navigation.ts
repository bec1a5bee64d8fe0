import type { DepartmentCode } from '../api/productions/contract';

export type Direction = 'left' | 'right' | 'up' | 'down';

const vectors: Record<Direction, [number, number]> = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

/** Angle (radians, 0…π) between a move and a direction, in screen coordinates (y down). */
function angleTo(from: [number, number], to: [number, number], direction: Direction) {
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  const [vx, vy] = vectors[direction];
  const length = Math.hypot(dx, dy);
  return length === 0 ? Math.PI : Math.acos(Math.max(-1, Math.min(1, (dx * vx + dy * vy) / length)));
}

/**
 * The department the arrow key goes to: among the bordering departments, the one most in that
 * direction (within 67.5°); with none there (islands, coasts), the nearest department of the map
 * in that direction (within 60°, nearer to the axis preferred), so every department is reached.
 */
export function neighbourInDirection(
  from: DepartmentCode,
  direction: Direction,
  graph: ReadonlyMap<DepartmentCode, readonly DepartmentCode[]>,
  positions: ReadonlyMap<DepartmentCode, [number, number]>,
): DepartmentCode | null {
  const origin = positions.get(from);
  if (!origin) return null;
  let best: DepartmentCode | null = null;
  let bestScore = Infinity;
  for (const code of graph.get(from) ?? []) {
    const at = positions.get(code);
    if (!at) continue;
    const angle = angleTo(origin, at, direction);
    if (angle <= (3 * Math.PI) / 8 && angle < bestScore) [best, bestScore] = [code, angle];
  }
  if (best) return best;
  for (const [code, at] of positions) {
    if (code === from) continue;
    const angle = angleTo(origin, at, direction);
    if (angle > Math.PI / 3) continue;
    const score = Math.hypot(at[0] - origin[0], at[1] - origin[1]) * (1 + 2 * angle);
    if (score < bestScore) [best, bestScore] = [code, score];
  }
  return best;
}
