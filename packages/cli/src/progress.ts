import type { ConvertRecord } from './convert.js';
import type { BatchItem } from './inputs.js';

/** Progress of a batch on stderr: a redrawn bar on a TTY, plain lines otherwise. */
export interface Progress {
  start(item: BatchItem): void;
  done(record: ConvertRecord, done: number, total: number): void;
  /** Clears the bar (before the summary). */
  end(): void;
}

function eta(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Redraws of the bar at most this often (ms): 10 000 inputs do not make 20 000 redraws. */
export const PROGRESS_REDRAW_MS = 100;

function rate(perSecond: number): string {
  return perSecond >= 100
    ? perSecond.toFixed(0)
    : perSecond >= 10
      ? perSecond.toFixed(1)
      : perSecond.toFixed(2);
}

/**
 * A progress display. `tty` draws one line `[####----] 12/40  ETA 8s  3.1/s  current-file`
 * redrawn in place (at most every {@link PROGRESS_REDRAW_MS}, and always for the last input):
 * inputs done, an estimate of the time left and the rate in inputs per second; otherwise each
 * finished input prints one line `[12/40] ok file (ms)` (unless `quietLines`: the CLI prints its
 * own line per record). `clock` is for tests.
 *
 * ```ts
 * const progress = createProgress(items.length, (s) => process.stderr.write(s), process.stderr.isTTY);
 * ```
 */
export function createProgress(
  total: number,
  write: (s: string) => void,
  tty: boolean,
  width = 80,
  quietLines = false,
  clock: () => number = () => performance.now(),
): Progress {
  const t0 = clock();
  let current = '';
  let count = 0;
  let drawn = Number.NEGATIVE_INFINITY;
  const draw = (force = false) => {
    const now = clock();
    if (!force && now - drawn < PROGRESS_REDRAW_MS) return;
    drawn = now;
    const barWidth = 24;
    const filled = total ? Math.round((count / total) * barWidth) : barWidth;
    const elapsed = now - t0;
    const left = count ? (elapsed / count) * (total - count) : 0;
    const perSecond = count && elapsed > 0 ? rate((count * 1000) / elapsed) : '?';
    const head = `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${count}/${total}  ETA ${count ? eta(left) : '?'}  ${perSecond}/s  `;
    const room = Math.max(10, width - head.length - 1);
    const name = current.length > room ? `…${current.slice(-(room - 1))}` : current;
    write(`\r\x1b[2K${head}${name}`);
  };
  return {
    start(item) {
      current = item.input;
      if (tty) draw();
    },
    done(record, done) {
      count = done;
      if (tty) draw(done === total);
      else if (!quietLines)
        write(
          `[${done}/${total}] ${record.status === 'ok' ? 'ok' : `error ${record.error?.code}`} ${record.input} (${record.ms} ms)\n`,
        );
    },
    end() {
      if (tty) {
        write('\r\x1b[2K');
        drawn = Number.NEGATIVE_INFINITY;
      }
    },
  };
}
