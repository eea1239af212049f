import { Document } from '@gltf-transform/core';
import { WarningCollector } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { resampleAnimations, resampleNeeded, resampleTimes } from '../src/index.js';

function animated(
  times: number[],
  values: number[],
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE',
  path: 'translation' | 'rotation' = 'translation',
) {
  const document = new Document();
  const node = document.createNode('bone');
  document.createScene().addChild(node);
  const sampler = document
    .createAnimationSampler()
    .setInput(document.createAccessor().setType('SCALAR').setArray(new Float32Array(times)))
    .setOutput(
      document
        .createAccessor()
        .setType(path === 'rotation' ? 'VEC4' : 'VEC3')
        .setArray(new Float32Array(values)),
    )
    .setInterpolation(interpolation);
  const channel = document
    .createAnimationChannel()
    .setTargetNode(node)
    .setTargetPath(path)
    .setSampler(sampler);
  document.createAnimation('walk').addSampler(sampler).addChannel(channel);
  return { document, sampler };
}

describe('resampleAnimations', () => {
  it('leaves channels already on the 30 fps grid byte for byte (nothing needed)', () => {
    const { document } = animated([0, 1 / 30, 2 / 30], [0, 0, 0, 1, 0, 0, 2, 0, 0], 'LINEAR');
    expect(resampleNeeded(document, { sampling: 'grid', fps: 30, interpolations: ['LINEAR'] })).toBe(false);
  });

  it('a long clip on the float32 30 fps grid needs nothing (past ~2 000 s float32 rounding exceeds the tolerance)', () => {
    const n = 90_000; // 3 000 s
    const times = Array.from({ length: n }, (_, k) => Math.fround(k / 30));
    expect(Math.max(...times.map((t, k) => Math.abs(t - k / 30)))).toBeGreaterThan(1e-4);
    const { document } = animated(times, new Array(n * 3).fill(0), 'LINEAR');
    const limits = { sampling: 'grid', fps: 30, interpolations: ['LINEAR'] } as const;
    expect(resampleNeeded(document, limits)).toBe(false);
    // one key a unit in the last place off the float32 grid, past the tolerance, still needs it
    times[n - 1] = times[n - 1] + 2 ** -12;
    expect(resampleNeeded(animated(times, new Array(n * 3).fill(0), 'LINEAR').document, limits)).toBe(true);
  });

  it('samples a 10 fps channel on the 30 fps grid: exact at the old keys, linear between', async () => {
    const { document, sampler } = animated([0, 0.1, 0.2], [0, 0, 0, 3, 0, 0, 6, 0, 0], 'LINEAR');
    const warnings = new WarningCollector();
    await document.transform(
      resampleAnimations({ sampling: 'grid', fps: 30, interpolations: ['LINEAR'], warnings }),
    );
    const t = sampler.getInput()!.getArray()!;
    const v = sampler.getOutput()!.getArray()!;
    expect(t.length).toBe(7);
    expect(t[3]).toBeCloseTo(0.1, 6);
    expect(v[3 * 3]).toBeCloseTo(3, 5);
    expect(v[1 * 3]).toBeCloseTo(1, 5);
    expect(warnings.list()).toEqual([expect.objectContaining({ code: 'ANIMATION_RESAMPLED', count: 1 })]);
  });

  it('turns STEP into LINEAR keys at the old times plus 30 fps points, holding each value', async () => {
    const { document, sampler } = animated([0, 0.5], [0, 0, 0, 5, 0, 0], 'STEP');
    await document.transform(resampleAnimations({ sampling: 'any', fps: 30, interpolations: ['LINEAR'] }));
    expect(sampler.getInterpolation()).toBe('LINEAR');
    const t = sampler.getInput()!.getArray()!;
    const v = sampler.getOutput()!.getArray()!;
    expect(t.length).toBe(16); // 0, 1/30 … 14/30, 0.5
    expect(v[14 * 3]).toBe(0); // held until the last point before 0.5
    expect(v[15 * 3]).toBe(5);
  });

  it('samples CUBICSPLINE rotations to unit quaternions', async () => {
    const q = [0, 0, 0, 1];
    const z = [0, 0, 0, 0];
    const r = [0, Math.SQRT1_2, 0, Math.SQRT1_2];
    const { document, sampler } = animated(
      [0, 1],
      [...z, ...q, ...z, ...z, ...r, ...z],
      'CUBICSPLINE',
      'rotation',
    );
    await document.transform(resampleAnimations({ sampling: 'grid', fps: 10, interpolations: ['LINEAR'] }));
    const v = sampler.getOutput()!.getArray()!;
    expect(v.length).toBe(11 * 4);
    for (let k = 0; k < 11; k++)
      expect(Math.hypot(v[k * 4], v[k * 4 + 1], v[k * 4 + 2], v[k * 4 + 3])).toBeCloseTo(1, 5);
    expect(Array.from(v.slice(40, 44)).map((x) => +x.toFixed(6))).toEqual(r.map((x) => +x.toFixed(6)));
  });

  it('grid times cover the whole channel from 0', () => {
    expect(
      Array.from(resampleTimes([0.5, 1.01], { sampling: 'grid', fps: 10, interpolations: ['LINEAR'] }))
        .length,
    ).toBe(12);
  });
});

describe('resampleAnimations with a rate per animation', () => {
  it('takes each clip’s own rate: 24 fps keys fit a 24 fps clip, and a 10 fps clip is put on its 24 fps grid', async () => {
    const { document, sampler } = animated([0, 1 / 24, 2 / 24], [0, 0, 0, 1, 0, 0, 2, 0, 0], 'LINEAR');
    const perClip = { sampling: 'grid' as const, fps: () => 24, interpolations: ['LINEAR' as const] };
    expect(resampleNeeded(document, perClip)).toBe(false);
    const other = animated([0, 0.1], [0, 0, 0, 1, 0, 0], 'LINEAR');
    await other.document.transform(
      resampleAnimations({ ...perClip, fps: (a) => (a.getName() === 'walk' ? 24 : 30) }),
    );
    const t = other.sampler.getInput()!.getArray()!;
    expect(t.length).toBe(4); // 0, 1/24, 2/24, 3/24 (≥ 0.1)
    expect(t[1]).toBeCloseTo(1 / 24, 6);
    expect(sampler.getInput()!.getArray()!.length).toBe(3);
  });
});

describe('resampleAnimations bounds', () => {
  it('refuses a STEP channel spanning 10⁷ s with TOO_MANY_FRAMES before allocating', async () => {
    const { document } = animated([0, 1e7], [0, 0, 0, 1, 0, 0], 'STEP');
    const run = document.transform(
      resampleAnimations({ sampling: 'any', fps: 30, interpolations: ['LINEAR'] }),
    );
    await expect(run).rejects.toMatchObject({ code: 'TOO_MANY_FRAMES' });
  });
});

describe('resampleAnimations on broken samplers', () => {
  it('leaves a CUBICSPLINE sampler without output alone (no TypeError; the exporter reports it)', async () => {
    const { document, sampler } = animated([0, 0.5], [0, 0, 0, 1, 0, 0], 'CUBICSPLINE');
    sampler.setOutput(null);
    const limits = { sampling: 'grid' as const, fps: 30, interpolations: ['LINEAR' as const] };
    expect(resampleNeeded(document, limits)).toBe(false);
    await document.transform(resampleAnimations(limits));
    expect(sampler.getInterpolation()).toBe('CUBICSPLINE');
  });
});
