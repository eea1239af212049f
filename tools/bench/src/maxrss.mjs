// Preloaded (`node --import`) into a measured CLI process: prints its peak RSS on exit, so the
// bench can report the whole-process memory of a conversion without GNU time.
process.on('exit', () => {
  process.stderr.write(`\n@@MAXRSS ${process.resourceUsage().maxRSS}\n`);
});
