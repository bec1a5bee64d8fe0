// The list's id ceiling (issue 28): the newest lead's id when the list's first page was read. The
// pages read after it hold no lead above it, so leads arriving meanwhile never shift them (a lead
// shown twice at a page boundary): they wait behind the 'nouveaux leads' bar. Showing them, a
// refresh, an action or events missed move it (`moveCeiling`).

let moves = 0;

/** The ceiling each list's rows on screen were read under: what "all N matching" acts on. */
const shown = new Map<string, number>();

/** The name of a list (landings and status) for its ceiling. */
export const listKey = (landingIds: readonly number[], status: string) => `${landingIds.join(',')}|${status}`;

/** The ceiling of the list `list` as shown now; undefined before its first page came. */
export const shownCeiling = (list: string): number | undefined => shown.get(list);

/** The next page read of every list takes a new ceiling. */
export function moveCeiling() {
  moves++;
}

/** The ceiling of one mounted list (a status tab), taken by its first page and kept until it moves. */
export class ListCeiling {
  private held: { list: string; moves: number; id: Promise<number> } | undefined;

  /**
   * Reads a page under the list's ceiling; without one (a new list, or it moved), the page read
   * takes it: pages asked meanwhile wait for it. A first page that failed (a newer query aborted
   * it) leaves none: the next read takes one.
   */
  read<T extends { ceiling: number }>(list: string, page: (ceiling: number | undefined) => Promise<T>): Promise<T> {
    const held = this.held;
    if (held && held.list === list && held.moves === moves) return held.id.then(page, () => this.read(list, page));
    const first = page(undefined);
    const taken = {
      list,
      moves,
      id: first.then((r) => {
        // Before the page's rows reach the grid: the ceiling shown is never older than the rows.
        if (this.held === taken) shown.set(list, r.ceiling);
        return r.ceiling;
      }),
    };
    this.held = taken;
    taken.id.catch(() => {
      if (this.held === taken) this.held = undefined;
    });
    return first;
  }
}
