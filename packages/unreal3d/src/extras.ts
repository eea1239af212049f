/**
 * The extras both directions share: what import stores on the glTF mesh (`mesh.extras.unreal3d`)
 * and the custom vertex attribute naming each glTF vertex's `_d.3d` vertex, so that export writes
 * an imported mesh back byte for byte.
 */
import type { Placement } from './transform.js';

/** Name of the custom vertex attribute holding each glTF vertex's `_d.3d` vertex index. */
export const VERTEX_ATTRIBUTE = '_UNREAL_VERTEX';

/** Extras stored on the glTF mesh (`mesh.extras.unreal3d`), enough for a byte-exact export. */
export interface UnrealMeshExtras {
  meshName: string;
  fileBase?: string;
  /** Primitive index per run of triangles (−1 = weapon triangle), and run lengths: [g, n, g, n, …]. */
  runs: number[];
  /** Raw weapon triangles in file order. */
  weapons: {
    vertices: number[];
    type: number;
    color: number;
    uvs: number[];
    texture: number;
    flags: number;
  }[];
  /** Vertices no rendered triangle uses: indices and their raw X, Y, Z per frame. */
  orphans?: { indices: number[]; frames: number[][] };
  /** Header fields the engine ignores, when not zero. */
  header?: {
    bogusRot: number;
    bogusFrame: number;
    bogusNorm: number[];
    fixScale: number;
    unused: number[];
    padding: number[];
  };
  /** Header count fields when they differ from the data present (truncated files). */
  numPolys?: number;
  numFrames?: number;
  /**
   * Set when every frame of the `_a.3d` equals frame 0 (static props are often saved with 30
   * identical frames): the mesh then has no morph targets and export repeats frame 0 this many
   * times.
   */
  sameFrames?: number;
  layout: 'packed' | 'deusex';
  frameSize?: number;
  /** Base64 of bytes the files carried beyond their data (rare). */
  dataTrailing?: string;
  anivTrailing?: string;
  /** Bytes the `_a.3d`'s last frame lacked (read padded, `ANIV_TRUNCATED`); export leaves them out again. */
  anivMissing?: number;
  /**
   * Raw triangles naming vertex `numVertices` (one past the end, `INDEX_OUT_OF_RANGE`), in file
   * order: not in the glTF; `runs` places them (group −2) so export writes them back.
   */
  outOfRange?: UnrealMeshExtras['weapons'];
  frameExtra?: string;
  /** Deus Ex pad words when any is not zero. */
  pads?: number[];
  numVertices: number;
  placement: Placement;
  /** `.uc`: the mesh's directives (raw lines) and the full text it came from. */
  uc?: {
    text?: string;
    encoding?: 'latin1';
    /** File name of the class file the text came from (written back under it when unchanged). */
    file?: string;
    directives: string[];
    unmirror: boolean;
    zeroTex: boolean;
    textures: { num: number; name: string; file?: string }[];
  };
}
