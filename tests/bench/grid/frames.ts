// Per-frame main-thread work: from the frame's start (the rAF timestamp) until the task after
// its rendering update, merged with the input tasks (keydown) that ran since the last frame.
// rAF intervals alone cannot go below the 16.7 ms vsync; this measures what the page costs.
type Interval = [number, number];

let running = false;
let generation = 0;
let frames: Interval[] = [];
let inputs: Interval[] = [];

// A keydown's work ends when its dispatch ends, handlers and their microtasks included. Not at
// the next task: after a discrete input Chromium defers other tasks until the next frame has
// been rendered, so the next task would count the idle wait for vsync as the keydown's work.
// The end is taken by a bubbling listener on window moved to the end of the list on every
// keydown, so that it runs after every other one; when a handler stops the propagation, the
// next task ends the keydown instead.
let open: Interval | null = null;
const dispatched = () => {
  const input = open;
  open = null;
  if (input) queueMicrotask(() => (input[1] = performance.now()));
};
addEventListener(
  'keydown',
  () => {
    if (!running) return;
    const input: Interval = [performance.now(), NaN];
    inputs.push(input);
    open = input;
    removeEventListener('keydown', dispatched);
    addEventListener('keydown', dispatched);
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      if (Number.isNaN(input[1])) input[1] = performance.now();
    };
    ch.port2.postMessage(0);
  },
  true,
);

export function startFrames() {
  frames = [];
  inputs = [];
  running = true;
  // A loop left from the previous measure (stopped less than a frame ago) must not record here too.
  const mine = ++generation;
  const frame = (ts: number) => {
    if (!running || mine !== generation) return;
    const ch = new MessageChannel();
    ch.port1.onmessage = () => frames.push([ts, performance.now()]);
    ch.port2.postMessage(0);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** Work per frame in ms, one figure per frame that had work to do. */
export function stopFrames(): number[] {
  running = false;
  const out: number[] = [];
  let prevEnd = -Infinity;
  for (const [start, end] of frames) {
    const parts: Interval[] = [[start, end], ...inputs.filter(([, e]) => e > prevEnd && e <= end)];
    parts.sort((a, b) => a[0] - b[0]);
    let total = 0;
    let cur: Interval | null = null;
    for (const p of parts) {
      if (cur && p[0] <= cur[1]) cur[1] = Math.max(cur[1], p[1]);
      else {
        if (cur) total += cur[1] - cur[0];
        cur = [p[0], p[1]];
      }
    }
    if (cur) total += cur[1] - cur[0];
    out.push(total);
    prevEnd = end;
  }
  return out;
}

/** Scrolls `el` by `step` px once per frame, `count` times. */
export function scrollFrames(el: HTMLElement, step: number, count: number): Promise<void> {
  return new Promise((resolve) => {
    let n = 0;
    const tick = () => {
      el.scrollTop += step;
      if (++n < count) requestAnimationFrame(tick);
      else requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    };
    requestAnimationFrame(tick);
  });
}
