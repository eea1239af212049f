// Issue 30: how the importers' encoding options resolve (portable unless compact is asked for;
// `float: true`, the portable mode's old name, wins over `compact: true`).
import { describe, expect, it } from 'vitest';
import { VERTEX_ANIMATION_ENCODING_DEFAULTS, vertexAnimationEncoding } from '../src/index.js';

describe('vertexAnimationEncoding', () => {
  it('defaults to portable with frame normals', () => {
    expect(VERTEX_ANIMATION_ENCODING_DEFAULTS).toEqual({ compact: false, frameNormals: true });
    expect(vertexAnimationEncoding()).toEqual(VERTEX_ANIMATION_ENCODING_DEFAULTS);
    expect(vertexAnimationEncoding({})).toEqual(VERTEX_ANIMATION_ENCODING_DEFAULTS);
    expect(Object.isFrozen(VERTEX_ANIMATION_ENCODING_DEFAULTS)).toBe(true);
  });

  it('every combination of compact, float and frameNormals', () => {
    for (const compact of [undefined, false, true])
      for (const float of [undefined, false, true])
        for (const frameNormals of [undefined, false, true]) {
          const got = vertexAnimationEncoding({ compact, float, frameNormals });
          const label = JSON.stringify({ compact, float, frameNormals });
          // compact only when asked for and not overridden by float: true
          expect(got.compact, label).toBe(compact === true && float !== true);
          expect(got.frameNormals, label).toBe(frameNormals !== false);
        }
  });

  it('reads the options of a whole ImportOptions object, ignoring the rest', () => {
    expect(vertexAnimationEncoding({ main: 'x', strict: true, compact: true } as never)).toEqual({
      compact: true,
      frameNormals: true,
    });
  });
});
