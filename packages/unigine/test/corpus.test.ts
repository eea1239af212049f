import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { FormatError, documentStats } from '@gltf-legacy/core';
import { corpusFiles, firstByteDiff, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { afterAll, describe, expect, it } from 'vitest';
import { UNIGINE_TO_GLTF, legacyFormat, readAnim, readMesh, writeAnim, writeMesh } from '../src/index.js';
import { fileSet, stemOf, unigineCorpus } from './helpers.js';

const { supported, unsupported } = unigineCorpus();
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

describe('corpus: file model', () => {
  it('has the expected corpus', () => {
    expect(supported.length).toBe(21);
    expect(unsupported.map((f) => basename(f)).sort()).toEqual([
      'anim_an11.anim',
      'box_ms10.mesh',
      'box_ms13.mesh',
      'box_ms14.mesh',
    ]);
  });

  it.each(supported.map((f) => [basename(f), f]))('%s parses and writes back byte for byte', (name, path) => {
    const bytes = readBytes(path);
    const out = name.endsWith('.mesh') ? writeMesh(readMesh(bytes, name)) : writeAnim(readAnim(bytes, name));
    expect(firstByteDiff(bytes, out)).toBe(-1);
  });

  it.each(unsupported.map((f) => [basename(f), f]))(
    '%s is refused with UNSUPPORTED_VERSION',
    async (name, path) => {
      const bytes = readBytes(path);
      expect(legacyFormat.sniff(bytes, name)).toBe(true); // ours to refuse, not "unknown format"
      const magic = new TextDecoder().decode(bytes.subarray(0, 4));
      const read = () => (name.endsWith('.mesh') ? readMesh(bytes, name) : readAnim(bytes, name));
      expect(read).toThrow(FormatError);
      try {
        read();
      } catch (e) {
        expect((e as FormatError).code).toBe('UNSUPPORTED_VERSION');
        expect((e as FormatError).message).toContain(`"${magic}" is not supported`);
        expect((e as FormatError).message).toContain(name.endsWith('.mesh') ? '"ms11"' : '"an10"');
      }
      await expect(legacyFormat.import(new Map([[name, bytes]]), { main: name })).rejects.toMatchObject({
        code: 'UNSUPPORTED_VERSION',
      });
    },
  );

  it('reads the documented facts of the samples', () => {
    const box47 = readMesh(readBytes(corpusFiles('unigine', ['Box47.mesh'])[0]));
    expect(box47.surfaces.map((s) => s.targets[0].length / 3)).toEqual([10065, 34349]);
    expect(box47.surfaces[1].tangents.length / 4).toBe(71742); // > 65535: int32 triangle indices
    expect(box47.surfaces[1].triIndices.length).toBe(187221);
    const actor = readMesh(readBytes(corpusFiles('unigine', ['actor_00.mesh'])[0]));
    expect(actor.bones.length).toBe(54);
    expect(actor.surfaces.map((s) => s.name)).toEqual([
      'agent_body_lod1',
      'agent_eye_lod1',
      'agent_head_lod1',
    ]);
    for (const s of actor.surfaces) {
      expect(s.weightCounts.length).toBe(s.targets[0].length / 3);
      // weight codes of each record sum to ~65535
      for (let i = 0; i < s.weightCounts.length; i++) {
        let sum = 0;
        for (let k = s.weightStarts[i]; k < s.weightStarts[i + 1]; k++) sum += s.weightValues[k];
        expect(sum).toBeGreaterThanOrEqual(65530);
        expect(sum).toBeLessThanOrEqual(65535);
      }
    }
  });
});

describe('legacyFormat', () => {
  it('sniffs by magic, not by extension', () => {
    const mesh = readBytes(supported.find((f) => f.endsWith('plane.mesh')) as string);
    expect(legacyFormat.sniff(mesh, 'whatever.bin')).toBe(true);
    // A The Sims Online .mesh: big-endian, no magic.
    const tso = new Uint8Array([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0x41, 0x42, 0x43]);
    expect(legacyFormat.sniff(tso, 'tso.mesh')).toBe(false);
    expect(legacyFormat.sniff(new TextEncoder().encode('ms1'), 'x.mesh')).toBe(false);
    expect(legacyFormat.sniff(new TextEncoder().encode('mesh'), 'x.mesh')).toBe(false);
    expect(legacyFormat.id).toBe('unigine');
    expect(legacyFormat.extensions).toEqual(['.mesh', '.anim']);
    expect(legacyFormat.mainExtension).toBe('.mesh');
  });

  it('picks .anim companions by base name', () => {
    const names = readdirNames();
    expect(legacyFormat.companions?.('actor_00.mesh', names).sort()).toEqual([
      'actor_00_idle.anim',
      'actor_00_jump.anim',
      'actor_00_run_fwd.anim',
      'actor_00_run_lt.anim',
      'actor_00_walk_bwd.anim',
      'actor_00_walk_fwd.anim',
    ]);
    expect(legacyFormat.companions?.('QBZ95_long.mesh', names)).toEqual(['QBZ95_long.anim']);
    expect(legacyFormat.companions?.('arm.mesh', names)).toEqual(['arm.anim']);
    expect(legacyFormat.companions?.('fp2_QBZ95_long.mesh', names)).toEqual(['fp2_QBZ95_long.anim']);
    expect(legacyFormat.companions?.('plane.mesh', names)).toEqual([]);
  });

  it('inspects the file model', () => {
    const path = supported.find((f) => f.endsWith('actor_00.mesh')) as string;
    const sections = legacyFormat.inspect?.(fileSet(path), { main: 'actor_00.mesh' }) ?? [];
    expect(sections[0].facts?.surfaces).toBe(3);
    expect(sections[0].facts?.bones).toBe(54);
    expect(sections.find((s) => s.title.startsWith('actor_00_idle.anim'))?.rows?.[0]).toEqual(
      expect.arrayContaining(['idle', 53, 56]),
    );
  });
});

function readdirNames(): string[] {
  return corpusFiles('unigine', ['.mesh', '.anim']).map((f) => basename(f));
}

function bboxOf(doc: Document, primIndex?: number): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const prims = doc.getRoot().listMeshes()[0].listPrimitives();
  for (const [i, p] of prims.entries()) {
    if (primIndex !== undefined && i !== primIndex) continue;
    const a = p.getAttribute('POSITION');
    if (!a) continue;
    const lo = a.getMin([]);
    const hi = a.getMax([]);
    for (let c = 0; c < 3; c++) {
      min[c] = Math.min(min[c], lo[c]);
      max[c] = Math.max(max[c], hi[c]);
    }
  }
  return { min, max };
}

/** A stored UNIGINE box, converted to glTF axes. */
function storedBox(b: Float32Array): { min: number[]; max: number[] } {
  const lo = [b[0], b[1], b[2]];
  const hi = [b[3], b[4], b[5]];
  convertVec3Local(lo);
  convertVec3Local(hi);
  return {
    min: [0, 1, 2].map((c) => Math.min(lo[c], hi[c])),
    max: [0, 1, 2].map((c) => Math.max(lo[c], hi[c])),
  };
}

function convertVec3Local(v: number[]): void {
  const [a0, a1, a2] = UNIGINE_TO_GLTF.axis;
  const [s0, s1, s2] = UNIGINE_TO_GLTF.sign;
  const x = v[a0];
  const y = v[a1];
  const z = v[a2];
  v[0] = s0 * x;
  v[1] = s1 * y;
  v[2] = s2 * z;
}

describe('corpus: import', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'unigine-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each(supported.map((f) => [basename(f), f]))(
    '%s imports, validates and round-trips through a .glb on disk',
    async (name, path) => {
      const files = fileSet(path);
      const { document, warnings } = await legacyFormat.import(files, { main: name });
      expect(warnings).toEqual([]);
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const file = join(tmp, `${stemOf(name)}.glb`);
      writeFileSync(file, glb);
      const back = await io.readBinary(new Uint8Array(readFileSync(file)));
      const out = await legacyFormat.export?.(back, { name: stemOf(name) });
      expect(out).toBeDefined();
      expect([...(out?.files.keys() ?? [])].sort()).toEqual([...files.keys()].sort());
      for (const [n, bytes] of files) {
        const o = out?.files.get(n) as Uint8Array;
        expect(firstByteDiff(bytes, o), `${n} differs`).toBe(-1);
      }
      expect(out?.warnings).toEqual([]);
    },
  );

  it.each(supported.filter((f) => f.endsWith('.mesh')).map((f) => [basename(f), f]))(
    '%s: imported bounds equal the stored surface and mesh bounds',
    async (name, path) => {
      const bytes = readBytes(path);
      const mesh = readMesh(bytes, name);
      const { document } = await legacyFormat.import(new Map([[name, bytes]]), { main: name });
      mesh.surfaces.forEach((s, i) => {
        const got = bboxOf(document, i);
        const want = storedBox(s.bounds);
        expect(got.min, `${s.name} min`).toEqual(want.min.map((v) => Math.fround(v)));
        expect(got.max, `${s.name} max`).toEqual(want.max.map((v) => Math.fround(v)));
      });
      const all = bboxOf(document);
      const want = storedBox(mesh.bounds);
      expect(all.min).toEqual(want.min);
      expect(all.max).toEqual(want.max);
    },
  );

  it('imports the skinned actor with its 6 animations', async () => {
    const path = supported.find((f) => f.endsWith('actor_00.mesh')) as string;
    const { document } = await legacyFormat.import(fileSet(path), { main: 'actor_00.mesh' });
    const stats = documentStats(document);
    expect(stats.joints).toBe(54);
    expect(stats.primitives).toBe(3);
    const anims = document.getRoot().listAnimations();
    expect(anims.map((a) => a.getName()).sort()).toEqual([
      'idle',
      'jump',
      'run_fwd',
      'run_lt',
      'walk_bwd',
      'walk_fwd',
    ]);
    // Durations = (frames − 1) / 30 fps: idle 56 frames, jump 2, run_fwd 26, run_lt 19, walk_bwd 39, walk_fwd 26.
    const frames: Record<string, number> = {
      idle: 56,
      jump: 2,
      run_fwd: 26,
      run_lt: 19,
      walk_bwd: 39,
      walk_fwd: 26,
    };
    for (const a of anims) {
      const max = Math.max(...a.listSamplers().map((s) => s.getInput()?.getMax([])[0] ?? 0));
      expect(max).toBeCloseTo((frames[a.getName()] - 1) / 30, 6);
    }
    // jump.anim names 65 bones; the 11 the mesh lacks become plain nodes so no track is lost.
    const jump = anims.find((a) => a.getName() === 'jump');
    expect(new Set(jump?.listChannels().map((c) => c.getTargetNode())).size).toBe(65);
    // Weights normalised and at most 4 per vertex.
    for (const p of document.getRoot().listMeshes()[0].listPrimitives()) {
      const w = p.getAttribute('WEIGHTS_0')?.getArray() as Float32Array;
      for (let v = 0; v < w.length; v += 4) expect(w[v] + w[v + 1] + w[v + 2] + w[v + 3]).toBeCloseTo(1, 5);
    }
    // The character stands along glTF +Y (UNIGINE +Z): about 1.74 units tall.
    const box = bboxOf(document);
    expect(box.max[1]).toBeCloseTo(1.7397, 3);
    expect(box.min[1]).toBeCloseTo(0, 3);
  });

  it('honours the fps option', async () => {
    const path = supported.find((f) => f.endsWith('actor_00_idle.anim')) as string;
    const { document } = await legacyFormat.import(new Map([['idle.anim', readBytes(path)]]), {
      main: 'idle.anim',
      fps: 25,
    });
    const a = document.getRoot().listAnimations()[0];
    expect(a.listSamplers()[0].getInput()?.getMax([])[0]).toBeCloseTo(55 / 25, 6);
  });

  it('imports a lone .anim as one node per bone plus the animation', async () => {
    const path = supported.find((f) => f.endsWith('arm.anim')) as string;
    const { document } = await legacyFormat.import(new Map([['arm.anim', readBytes(path)]]), {
      main: 'arm.anim',
    });
    expect(document.getRoot().listNodes().length).toBe(40);
    expect(document.getRoot().listAnimations().length).toBe(1);
    expect(document.getRoot().listMeshes().length).toBe(0);
  });

  it('warns about a companion it cannot use', async () => {
    const mesh = supported.find((f) => f.endsWith('plane.mesh')) as string;
    const an11 = unsupported.find((f) => f.endsWith('.anim')) as string;
    const { warnings } = await legacyFormat.import(
      new Map([
        ['plane.mesh', readBytes(mesh)],
        ['plane_x.anim', readBytes(an11)],
      ]),
      { main: 'plane.mesh' },
    );
    expect(warnings.map((w) => w.code)).toEqual(['COMPANION_IGNORED']);
  });

  it('warns when a companion animation names none of the mesh bones', async () => {
    const mesh = supported.find((f) => f.endsWith('arm.mesh')) as string;
    const other = supported.find((f) => f.endsWith('fp2_QBZ95_long.anim')) as string;
    const { document, warnings } = await legacyFormat.import(
      new Map([
        ['arm.mesh', readBytes(mesh)],
        ['arm_gun.anim', readBytes(other)],
      ]),
      { main: 'arm.mesh' },
    );
    expect(warnings.map((w) => w.code)).toEqual(['ANIMATION_UNMATCHED']);
    expect(document.getRoot().listAnimations().length).toBe(2); // embedded "scene" + the gun's
  });

  it('decodes tangent quaternions into unit normals that agree with the winding', async () => {
    const path = supported.find((f) => f.endsWith('sphere_00.mesh')) as string;
    const { document } = await legacyFormat.import(fileSet(path), { main: 'sphere_00.mesh' });
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    const pos = prim.getAttribute('POSITION')?.getArray() as Float32Array;
    const nrm = prim.getAttribute('NORMAL')?.getArray() as Float32Array;
    const tan = prim.getAttribute('TANGENT')?.getArray() as Float32Array;
    let outward = 0;
    for (let v = 0; v < nrm.length / 3; v++) {
      expect(Math.hypot(nrm[v * 3], nrm[v * 3 + 1], nrm[v * 3 + 2])).toBeCloseTo(1, 5);
      expect(Math.abs(tan[v * 4 + 3])).toBe(1);
      // A sphere centred near the origin: normals point away from the centre.
      if (nrm[v * 3] * pos[v * 3] + nrm[v * 3 + 1] * pos[v * 3 + 1] + nrm[v * 3 + 2] * pos[v * 3 + 2] > 0)
        outward++;
    }
    expect(outward / (nrm.length / 3)).toBeGreaterThan(0.99);
  });
});
