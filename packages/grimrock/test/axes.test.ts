/**
 * Issue 18.3: a model's forward in the game is +Z in the .glb and its up is +Y. Grimrock
 * characters face +Z with their right hand at +X in the file (a left-handed frame, see
 * ../shared/formats/grimrock.md §4); import mirrors X, so in glTF they must still face +Z, stand
 * along +Y, and have their right hand at −X (glTF's right for a model facing +Z). Established on
 * named parts of real models: toes and jaw lie ahead of the feet and neck, the tail behind the
 * snail's mouth.
 */
import { basename } from 'node:path';
import type { Document } from '@gltf-transform/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { importGrimrock } from '../src/index.js';

const corpus = corpusFiles('grimrock', ['.model']);
const load = (name: string) =>
  importGrimrock(new Map([[name, readBytes(corpus.find((p) => basename(p) === name)!)]])).document;

/** World position of the node named `name`. */
function at(doc: Document, name: string): [number, number, number] {
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === name);
  if (!node) throw new Error(`no node ${name}`);
  return node.getWorldTranslation() as [number, number, number];
}

describe('glTF forward +Z, up +Y', () => {
  it('skeleton warrior: toes and jaw ahead (+Z), head above the feet (+Y), right arm at −X', () => {
    const doc = load('skeleton_warrior_axe.model');
    for (const side of ['r', 'l'])
      expect(at(doc, `toes_${side}`)[2]).toBeGreaterThan(at(doc, `foot_${side}`)[2]);
    expect(at(doc, 'jaw')[2]).toBeGreaterThan(at(doc, 'neck')[2]);
    expect(at(doc, 'head')[1]).toBeGreaterThan(at(doc, 'hip')[1]);
    expect(at(doc, 'hip')[1]).toBeGreaterThan(at(doc, 'toes_r')[1]);
    expect(at(doc, 'arm_r')[0]).toBeLessThan(0);
    expect(at(doc, 'arm_l')[0]).toBeGreaterThan(0);
  });

  it('snail: mouth ahead of the tail (+Z)', () => {
    const doc = load('snail_red.model');
    expect(at(doc, 'mouth')[2]).toBeGreaterThan(at(doc, 'tail')[2]);
  });
});
