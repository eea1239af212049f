#!/usr/bin/env node
/**
 * Whole-process vertex animation conversion (what `gltf-legacy convert X_d.3d` does for all
 * frames, without the CLI): X_d.3d + X_a.3d → .glb. Flags: --compact, --float, --no-frame-normals. Prints
 * one JSON line: wall and CPU (user + system) ms of the process so far, peak RSS (bytes), .glb bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { importUnrealFiles } from '../dist/index.js';

const args = process.argv.slice(2);
const [input, output] = args.filter((a) => !a.startsWith('--'));
const a = input.replace(/_d\.3d$/i, '_a.3d');
const files = new Map([
  [basename(input), new Uint8Array(readFileSync(input))],
  [basename(a), new Uint8Array(readFileSync(a))],
]);
const { document } = await importUnrealFiles(files, {
  main: basename(input),
  compact: args.includes('--compact'),
  float: args.includes('--float'),
  frameNormals: !args.includes('--no-frame-normals'),
  textures: false,
});
const glb = await new NodeIO().registerExtensions(KHRONOS_EXTENSIONS).writeBinary(document);
writeFileSync(output, glb);
const cpu = process.cpuUsage();
console.log(
  JSON.stringify({
    ms: performance.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRss: peakRss(),
    glbBytes: glb.length,
  }),
);

/**
 * Peak RSS of this process: Linux's VmHWM (reset by exec), else `resourceUsage().maxRSS` — which
 * Linux keeps across exec, so a child spawned by a big parent would report the parent's size.
 */
function peakRss() {
  try {
    const kb = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {}
  return process.resourceUsage().maxRSS * 1024;
}
