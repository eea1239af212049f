#!/usr/bin/env node
/** Whole-process static conversion (what `assimp export X_d.3d out.glb -fglb2` does): X_d.3d + X_a.3d → .glb, frame 0. */
import { readFileSync, writeFileSync } from 'node:fs';
import { NodeIO } from '@gltf-transform/core';
import { importUnrealFiles } from '../dist/index.js';

const [input, output] = process.argv.slice(2);
const a = input.replace(/_d\.3d$/i, '_a.3d');
const files = new Map([
  [input.split('/').pop(), new Uint8Array(readFileSync(input))],
  [a.split('/').pop(), new Uint8Array(readFileSync(a))],
]);
const { document } = await importUnrealFiles(files, { main: input.split('/').pop(), frames: 'first' });
writeFileSync(output, await new NodeIO().writeBinary(document));
