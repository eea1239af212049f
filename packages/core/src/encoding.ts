/**
 * How importers encode vertex-animation data (issue 30): **portable** by default — float32 morph
 * targets and animation outputs, sparse accessors where they are smaller (core glTF 2.0), so the
 * output lists nothing in `extensionsRequired` and every glTF client opens it — or **compact**
 * (`compact: true`, CLI `--compact`): the integer types of the source (`KHR_mesh_quantization`
 * morph targets, normalized SHORT rotation tracks), listed in `extensionsRequired` where a
 * client must understand them. Blender, three.js, Babylon.js and glTFast read
 * `KHR_mesh_quantization`; Godot 4 (until godotengine/godot#120205), f3d/VTK and libGDX's
 * gdx-gltf refuse a file that requires it.
 */

/** The encoding options an importer reads from its `ImportOptions`. */
export interface VertexAnimationEncodingOptions {
  /**
   * Write the source's quantized values as integers (`KHR_mesh_quantization` morph targets,
   * normalized SHORT rotation tracks): smaller files some clients refuse. Default false.
   */
  compact?: boolean;
  /**
   * The portable mode's name from before issue 30 (CLI `--float`), now the default. `float: true`
   * wins over `compact: true` (a client that cannot read the integers breaks; a float file is only
   * larger); `float: false` alone does not select the compact mode.
   */
  float?: boolean;
  /** A NORMAL delta per morph target (default true); false: the client keeps the base normals. */
  frameNormals?: boolean;
}

/** The resolved encoding: what an importer writes. */
export interface VertexAnimationEncoding {
  /** Integers with `KHR_mesh_quantization` (and normalized SHORT tracks) instead of float32. */
  compact: boolean;
  /** A NORMAL delta per morph target. */
  frameNormals: boolean;
}

/** The default: portable (float32, nothing required), with frame normals. */
export const VERTEX_ANIMATION_ENCODING_DEFAULTS: Readonly<VertexAnimationEncoding> = Object.freeze({
  compact: false,
  frameNormals: true,
});

/**
 * The encoding `options` ask for: `compact` only when `compact === true` and `float !== true`;
 * `frameNormals` unless it is `false`.
 *
 * ```ts
 * vertexAnimationEncoding({});                              // { compact: false, frameNormals: true }
 * vertexAnimationEncoding({ compact: true });               // { compact: true, frameNormals: true }
 * vertexAnimationEncoding({ compact: true, float: true });  // { compact: false, … }: float wins
 * ```
 */
export function vertexAnimationEncoding(
  options: VertexAnimationEncodingOptions = {},
): VertexAnimationEncoding {
  return {
    compact: options.compact === true && options.float !== true,
    frameNormals: options.frameNormals !== false,
  };
}
