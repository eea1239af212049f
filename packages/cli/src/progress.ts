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

/**
 * A progress display. `tty` draws one line `[####----] 12/40  ETA 8s  current-file` redrawn in
 * place; otherwise each finished input prints one line `[12/40] ok file (ms)` (unless `quietLines`:
 * the CLI prints its own line per record).
 */
export function createProgress(
  total: number,
  write: (s: string) => void,
  tty: boolean,
  width = 80,
  quietLines = false,
): Progress {
  const t0 = performance.now();
  let current = '';
  let count = 0;
  const draw = () => {
    const barWidth = 24;
    const filled = total ? Math.round((count / total) * barWidth) : barWidth;
    const elapsed = performance.now() - t0;
    const left = count ? (elapsed / count) * (total - count) : 0;
    const head = `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${count}/${total}  ETA ${count ? eta(left) : '?'}  `;
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
      if (tty) draw();
      else if (!quietLines)
        write(
          `[${done}/${total}] ${record.status === 'ok' ? 'ok' : `error ${record.error?.code}`} ${record.input} (${record.ms} ms)\n`,
        );
    },
    end() {
      if (tty) write('\r\x1b[2K');
    },
  };
}
