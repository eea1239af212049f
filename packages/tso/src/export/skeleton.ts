/** The `.skel` of the export: bones in parent-first order, raw values from extras when unchanged. */
import type { WarningCollector } from '@gltf-legacy/core';
import type { PropertyList } from '../props.js';
import { ROOT_PARENT, type TsoBone, type TsoSkeleton } from '../skel.js';
import { bitsToFloats, convertRotations, convertVectors, positiveZeros } from '../space.js';

import { type BoneInfo, isTsoGroup, num, uniqueName } from './common.js';

export function exportSkeleton(
  bones: BoneInfo[],
  order: number[],
  info: any,
  trailing: Uint8Array,
  name: string,
  warnings: WarningCollector,
): TsoSkeleton {
  const roots = bones.filter((b) => b.parent < 0);
  const out: TsoBone[] = [];
  let extraRoot: string | undefined;
  // Roots that all sit under one TSO group node (our import of a multi-root skeleton) stay roots.
  const group = roots[0]?.node.getParentNode();
  const grouped = !!group && isTsoGroup(group) && roots.every((r) => r.node.getParentNode() === group);
  if (roots.length > 1 && !grouped) {
    const used = new Set(bones.map((b) => b.name.toLowerCase()));
    extraRoot = uniqueName('ROOT', used, 'ROOT');
    out.push(makeBone(extraRoot, ROOT_PARENT, [0, 0, 0], [0, 0, 0, 1], undefined));
    warnings.warn(
      'SKELETON_ROOT_ADDED',
      `the joints have ${roots.length} roots; added a "${extraRoot}" bone above them`,
    );
  }
  for (const i of order) {
    const b = bones[i];
    const parentName = b.parent >= 0 ? bones[b.parent].name : (extraRoot ?? ROOT_PARENT);
    const x = b.node.getExtras()?.tso as Record<string, any> | undefined;
    out.push(makeBone(b.name, parentName, b.t, b.r, x));
  }
  return {
    version: typeof info?.version === 'number' ? info.version : 1,
    name: typeof info?.name === 'string' ? info.name : name,
    bones: out,
    trailing,
  };
}

function makeBone(
  name: string,
  parentName: string,
  t: number[],
  r: number[],
  x: Record<string, any> | undefined,
): TsoBone {
  const translation = Float32Array.from(t);
  const rotation = Float32Array.from(r);
  convertVectors(translation);
  convertRotations(rotation);
  positiveZeros(translation);
  positiveZeros(rotation);
  // Raw values kept at import (−0, non-unit rotations) win while the node still matches them.
  if (Array.isArray(x?.rawTranslation) && x.rawTranslation.length === 3) {
    const raw = bitsToFloats(x.rawTranslation);
    if (raw.every((v, k) => v === translation[k] || (!Number.isFinite(v) && translation[k] === 0)))
      translation.set(raw);
  }
  if (Array.isArray(x?.rawRotation) && x.rawRotation.length === 4) {
    const raw = bitsToFloats(x.rawRotation);
    // What import made of it: glTF axes, normalized (identity when it had no length).
    const seen = Float32Array.from(raw);
    convertRotations(seen);
    const len = Math.hypot(...seen);
    if (len > 0 && Number.isFinite(len)) for (let k = 0; k < 4; k++) seen[k] /= len;
    else seen.set([0, 0, 0, 1]);
    convertRotations(seen);
    if (seen.every((v, k) => Math.abs(v - rotation[k]) < 1e-6 || Object.is(v, rotation[k])))
      rotation.set(raw);
  }
  const props = (Array.isArray(x?.props) ? x.props : []) as PropertyList;
  const parent =
    typeof x?.parentName === 'string' && x.parentName.toLowerCase() === parentName.toLowerCase()
      ? x.parentName
      : parentName;
  return {
    unknown: num(x?.unknown),
    name,
    parentName: parent,
    hasProps: num(x?.hasProps, props.length ? 1 : 0),
    props,
    translation,
    rotation,
    canTranslate: num(x?.canTranslate, 1),
    canRotate: num(x?.canRotate, 1),
    canBlend: num(x?.canBlend, 1),
    wiggleValue: num(x?.wiggleValue),
    wigglePower: num(x?.wigglePower),
  };
}
