// Preloaded (`node --import`) into a measured CLI process: prints its peak RSS on exit, so the
// bench can report the whole-process memory of a conversion without GNU time. Linux: VmHWM from
// /proc/self/status — getrusage's maxRSS is inherited across fork + exec, so a child of a bigger
// process would report the parent's peak; elsewhere resourceUsage().maxRSS.
import { readFileSync } from 'node:fs';

process.on('exit', () => {
  let kb = process.resourceUsage().maxRSS;
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) kb = Number(hwm[1]);
  } catch {
    // not Linux: maxRSS
  }
  process.stderr.write(`\n@@MAXRSS ${kb}\n`);
});
