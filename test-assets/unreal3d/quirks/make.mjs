#!/usr/bin/env node
/**
 * Writes the hand-made quirk samples of this folder from ../cube_d.3d and ../cube_a.3d (the
 * package's own test files), changing a few bytes by hand — see README.md. Deterministic:
 * `node test-assets/unreal3d/quirks/make.mjs` rewrites the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('./', import.meta.url);
const read = (name) => new Uint8Array(readFileSync(new URL(`../${name}`, here)));
const write = (name, bytes) => writeFileSync(new URL(name, here), bytes);
const data = read('cube_d.3d');
const aniv = read('cube_a.3d');
const HEADER = 48; // _d.3d header bytes
const POLY = 16; // bytes per triangle

// 1. short: the _a.3d lacks the last vertex of its last frame (4 bytes of the packed layout).
write('short_d.3d', data);
write('short_a.3d', aniv.subarray(0, aniv.length - 4));

// 2. pastend: triangle 5, corner 2 names vertex numVertices (8), one past the last.
const pastEnd = data.slice();
const numVertices = pastEnd[2] | (pastEnd[3] << 8);
const corner = HEADER + 5 * POLY + 2 * 2;
pastEnd[corner] = numVertices & 0xff;
pastEnd[corner + 1] = numVertices >> 8;
write('pastend_d.3d', pastEnd);
write('pastend_a.3d', aniv);

// 3. padded: two zero bytes after the last frame of the _a.3d (a trailing pad).
write('padded_d.3d', data);
const padded = new Uint8Array(aniv.length + 2);
padded.set(aniv);
write('padded_a.3d', padded);
