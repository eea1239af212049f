import { ByteWriter } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { readAnimation, readModel, vertexArrayValues, writeAnimation, writeModel } from '../src/index.js';

/** Bytes written field by field from the struct text in the format notes (independent of writeModel). */
function handModel(): Uint8Array {
  const w = new ByteWriter();
  const str = (s: string) => w.i32(s.length).string(s);
  const floats = (...v: number[]) => {
    for (const x of v) w.f32(x);
  };
  w.string('MDL1').i32(2).i32(3);
  // Node 0: RootNode, identity, parent −1, empty.
  str('RootNode');
  floats(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
  w.i32(-1).i32(-1);
  // Node 1: bone, translated (1, 2, 3).
  str('bone');
  floats(1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3);
  w.i32(0).i32(-1);
  // Node 2: mesh entity.
  str('tri');
  floats(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
  w.i32(0).i32(0);
  w.string('MESH').i32(2).i32(3); // numVertices 3
  for (let a = 0; a < 15; a++) {
    if (a === 0) {
      w.i32(3).i32(3).i32(12);
      floats(0, 0, 0, 1, 0, 0, 0, 1, 0);
    } else if (a === 4) {
      w.i32(0).i32(4).i32(4);
      w.bytes(Uint8Array.of(255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255));
    } else if (a === 13) {
      w.i32(2).i32(4).i32(16);
      for (let v = 0; v < 3; v++) w.i32(0).i32(0).i32(0).i32(0);
    } else if (a === 14) {
      w.i32(3).i32(4).i32(16);
      for (let v = 0; v < 3; v++) floats(1, 0, 0, 0);
    } else w.i32(0).i32(0).i32(0);
  }
  w.i32(3).i32(0).i32(1).i32(2); // indices
  w.i32(1);
  str('stone');
  w.i32(2).i32(0).i32(1); // segment: triangles, firstIndex 0, 1 triangle
  floats(0.5, 0.5, 0, 0.71, 0, 0, 0, 1, 1, 0); // boundCenter, boundRadius, boundMin, boundMax
  w.i32(1).i32(1); // one bone → node 1
  floats(1, 0, 0, 0, 1, 0, 0, 0, 1, -1, -2, -3);
  floats(0.25, 0.5, 0.75); // emissive
  w.u8(1); // castShadow
  return w.finish();
}

describe('structs', () => {
  it('ModelFile / Node / MeshEntity / MeshData / VertexArray / Segment / Bone fields', () => {
    const bytes = handModel();
    const m = readModel(bytes, 'hand.model');
    expect(m.version).toBe(2);
    expect(m.nodes.map((n) => [n.name, n.parent, n.type])).toEqual([
      ['RootNode', -1, -1],
      ['bone', 0, -1],
      ['tri', 0, 0],
    ]);
    expect(Array.from(m.nodes[1].localToParent.subarray(9))).toEqual([1, 2, 3]);
    const e = m.nodes[2].meshEntity!;
    expect(e.mesh.numVertices).toBe(3);
    expect(e.mesh.arrays.map((a) => a.stride)).toEqual([12, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 16, 16]);
    expect(Array.from(vertexArrayValues(e.mesh.arrays[0], 3)!)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(Array.from(vertexArrayValues(e.mesh.arrays[4], 3)!.subarray(0, 4))).toEqual([255, 0, 0, 255]);
    expect(Array.from(e.mesh.indices)).toEqual([0, 1, 2]);
    expect(e.mesh.segments).toEqual([{ material: 'stone', primitiveType: 2, firstIndex: 0, count: 1 }]);
    expect(e.mesh.boundRadius).toBeCloseTo(0.71, 6);
    expect(Array.from(e.mesh.boundMax)).toEqual([1, 1, 0]);
    expect(e.bones).toHaveLength(1);
    expect(e.bones[0].nodeIndex).toBe(1);
    expect(Array.from(e.bones[0].invRestMatrix.subarray(9))).toEqual([-1, -2, -3]);
    expect(Array.from(e.emissiveColor)).toEqual([0.25, 0.5, 0.75]);
    expect(e.castShadow).toBe(1);
    expect(Array.from(writeModel(m))).toEqual(Array.from(bytes));
  });

  it('ANIM version 1 and version 2 items', () => {
    const w = new ByteWriter();
    w.string('ANIM').i32(1).i32(4).string('wave').f32(30).i32(2).i32(1);
    w.i32(4).string('bone').i32(2);
    for (let k = 0; k < 2; k++) {
      for (const x of [k, 0, 0, 0, 0, 0, 1, 1, 1, 1]) w.f32(x); // pos, rot (x,y,z,w), scale
    }
    const v1 = w.finish();
    const a = readAnimation(v1);
    expect([a.version, a.name, a.framesPerSecond, a.numFrames]).toEqual([1, 'wave', 30, 2]);
    expect(Array.from(a.items[0].positions)).toEqual([0, 0, 0, 1, 0, 0]);
    expect(Array.from(a.items[0].rotations)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    expect(Array.from(writeAnimation(a))).toEqual(Array.from(v1));

    const w2 = new ByteWriter();
    w2.string('ANIM').i32(2).i32(0).f32(24).i32(3).i32(1);
    w2.i32(4).string('bone');
    w2.i32(1).f32(1).f32(2).f32(3); // one position: constant
    w2.i32(3);
    for (let k = 0; k < 3; k++) w2.f32(0).f32(0).f32(0).f32(1);
    w2.i32(1).f32(1).f32(1).f32(1);
    const v2 = w2.finish();
    const b = readAnimation(v2);
    expect([b.version, b.framesPerSecond, b.numFrames]).toEqual([2, 24, 3]);
    expect([b.items[0].positions.length, b.items[0].rotations.length, b.items[0].scales.length]).toEqual([
      3, 12, 3,
    ]);
    expect(Array.from(writeAnimation(b))).toEqual(Array.from(v2));
  });

  it('errors name the field and offset', () => {
    const bytes = handModel();
    try {
      readModel(bytes.subarray(0, 240), 'cut.model');
      expect.unreachable();
    } catch (e: any) {
      expect(e.code).toBe('COUNT_TOO_LARGE');
      expect(e.field).toBe('nodes[2].meshEntity.mesh.arrays[0].data');
      expect(e.message).toContain('cut.model');
    }
  });
});
