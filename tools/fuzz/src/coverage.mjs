// V8 block coverage of the format packages' built code, through node:inspector in the running
// thread (Profiler.startPreciseCoverage, binary and detailed): the fast tier's guidance signal.
// Each take returns the blocks run since the previous take (V8 resets the counters), so a
// campaign samples every N inputs and re-runs a batch one input at a time only when it grew.
import { Session } from 'node:inspector';

/**
 * Coverage of the scripts whose URL matches `filter` (default: every package's dist/).
 * Start it BEFORE importing the code to measure: functions compiled earlier have no block
 * counters.
 *
 * ```js
 * const cov = new BlockCoverage();
 * cov.start();
 * const { readMdl } = await import(distUrl);
 * readMdl(bytes, 'x.mdl');
 * cov.take(); // { newBlocks }
 * ```
 */
export class BlockCoverage {
  constructor(filter = /\/packages\/[^/]+\/dist\//) {
    this.filter = filter;
    this.session = new Session();
    /** Function (`url:start:end`) → its known blocks (start·2^20 + end) → covered yet. */
    this.functions = new Map();
    /** Blocks covered so far (functions that ran, and known blocks run since). */
    this.covered = 0;
    this.scratch = new Uint8Array(1 << 16);
    this.takes = 0;
  }

  start() {
    this.session.connect();
    this.post('Profiler.enable');
    this.post('Profiler.startPreciseCoverage', { callCount: false, detailed: true });
  }

  stop() {
    try {
      this.post('Profiler.stopPreciseCoverage');
      this.post('Profiler.disable');
    } finally {
      this.session.disconnect();
    }
  }

  /** Synchronous post (an in-thread session answers before post returns). */
  post(method, params) {
    let out;
    let err;
    this.session.post(method, params, (e, r) => {
      err = e;
      out = r;
    });
    if (err) throw err;
    return out;
  }

  /** Number of blocks covered so far. */
  get blocks() {
    return this.covered;
  }

  /**
   * Collects (and resets) the counters. Returns `newBlocks`: blocks never covered before. A
   * block is a function that ran, or a range V8 once reported as not run inside a function
   * that ran (V8 leaves out ranges with their parent's count, so a block becomes known when
   * some input misses it, and covered when a later input runs it). With `commit: false` it
   * only counts (a batch that grew is then re-run input by input).
   */
  take({ commit = true } = {}) {
    this.takes++;
    const { result } = this.post('Profiler.takePreciseCoverage');
    let newBlocks = 0;
    for (const script of result) {
      if (!this.filter.test(script.url)) continue;
      for (const fn of script.functions) {
        const ranges = fn.ranges;
        if (!ranges.length || ranges[0].count === 0) continue;
        const base = ranges[0].startOffset;
        const len = ranges[0].endOffset - base;
        const fnKey = `${script.url}:${base}:${ranges[0].endOffset}`;
        let blocks = this.functions.get(fnKey);
        if (!blocks) {
          newBlocks++;
          if (!commit) continue;
          blocks = new Map();
          this.functions.set(fnKey, blocks);
          this.covered++;
        }
        if (ranges.length === 1 && !blocks.size) continue;
        if (this.scratch.length < len) this.scratch = new Uint8Array(len * 2);
        const paint = this.scratch;
        // ranges come outer first (start ascending, end descending): the innermost count wins
        for (const r of ranges) paint.fill(r.count > 0 ? 1 : 0, r.startOffset - base, r.endOffset - base);
        for (let k = 1; k < ranges.length; k++) {
          const key = ranges[k].startOffset * 0x100000 + ranges[k].endOffset;
          if (!blocks.has(key) && commit) blocks.set(key, false);
        }
        for (const [key, done] of blocks)
          if (!done && paint[Math.floor(key / 0x100000) - base]) {
            newBlocks++;
            if (commit) {
              blocks.set(key, true);
              this.covered++;
            }
          }
      }
    }
    return { newBlocks };
  }
}
