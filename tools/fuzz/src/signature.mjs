// The signature findings are deduplicated by (both tiers): format, kind, stage, error type,
// message with numbers and exported file names normalised, first stack frame in packages/.

/** Stable signature of a finding (kind, stage, error type, message shape, first stack frame). */
export function signature(format, f) {
  const msg = (f.error?.message ?? f.detail ?? '')
    // an exported file named after a glTF name (spaces, dots and all) in a fixed-point diff
    .replace(
      /(?<=: )fuzz[^:]*?((_[ad])?\.[A-Za-z0-9]+)(?= present in only one export| differs at byte)/g,
      'fuzz*$1',
    )
    .replace(/\bfuzz[^\s,:]*?((_[ad])?\.[A-Za-z0-9]+)(?=[\s,:]|$)/g, 'fuzz*$1')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 120);
  const frame = (f.error?.stack ?? []).find((l) => l.includes('/packages/')) ?? '';
  // function name + package only: bundle line numbers change with every build
  const where = frame
    .replace(/^at\s+/, '')
    .replace(/\(?file:\/\/\S*\/packages\/([^/]+)\/\S*?\)?$/, 'packages/$1');
  return [format, f.kind, f.stage, f.error?.name ?? '', msg, where].join(' | ');
}
