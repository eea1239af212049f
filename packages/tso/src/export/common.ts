import type { Node } from '@gltf-transform/core';
import { mat4 } from 'gl-matrix';
import { ROOT_PARENT } from '../skel.js';
import { jsonFloat, mat, mul } from '../space.js';

export interface BoneInfo {
  node: Node;
  name: string;
  parent: number;
  /** Local translation / rotation in glTF space. */
  t: number[];
  r: number[];
  /** TSO rest world matrix (T·R chain, no scale). */
  world: Float64Array;
  /** True when the local TR was decomposed (indirect parent or scale), so animations are approximate. */
  baked: boolean;
}

export const num = (v: unknown, d = 0) => jsonFloat(v, d);

export function nodeWorld(node: Node): Float64Array {
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.getParentNode()) chain.unshift(n);
  let w = mat();
  for (const n of chain) {
    const m = mat();
    mat4.fromRotationTranslationScale(m, n.getRotation(), n.getTranslation(), n.getScale());
    w = mul(w, m);
  }
  return w;
}

/** A group node our importer made (identity transform) to give several roots a common parent. */
export function isTsoGroup(n: Node): boolean {
  const x = n.getExtras()?.tso as { group?: boolean } | undefined;
  if (x?.group !== true || n.getParentNode()) return false;
  const t = n.getTranslation();
  const r = n.getRotation();
  const sc = n.getScale();
  return t.every((v) => v === 0) && r[3] === 1 && sc.every((v) => v === 1);
}

/** A bone name TSO can store: latin1 (others → `_`), ≤ 255 bytes, unique case-insensitively, not `NULL`. */
export function uniqueName(base: string, used: Set<string>, fallback: string): string {
  const clean = (base || fallback).replace(/[^\u0000-\u00ff]/g, '_');
  let name = clean.slice(0, 255);
  let k = 2;
  while (used.has(name.toLowerCase()) || name === ROOT_PARENT) name = `${clean.slice(0, 250)}_${k++}`;
  used.add(name.toLowerCase());
  return name;
}
