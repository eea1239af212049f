/** Options of the TSO exporter and their defaults. */
import type { ExportOptions } from '@gltf-legacy/core';
import type { Node } from '@gltf-transform/core';

/** Options of {@link exportTso}. */
export interface TsoExportOptions extends ExportOptions {
  /** Base name of the written files (`NAME.mesh`, `NAME.skel`, `NAME-anim.anim`). */
  name?: string;
  /** Frame rate of resampled animations (FreeSO's tools use 36). */
  fps?: number;
  /**
   * Write a `.skel`: `auto` writes one unless the document came from a TSO mesh imported without
   * a skeleton (whose bone nodes are placeholders at the origin).
   */
  skeleton?: 'auto' | 'always' | 'never';
  /** Length of the normals written for foreign glTF (FreeSO-made files use 3). */
  normalScale?: number;
  /**
   * Write the `.mesh` of these mesh nodes only (the outfit exporter writes one `.mesh` per part);
   * bones still come from every mesh node. Default: all mesh nodes into one `.mesh`.
   */
  meshNodes?: Node[];
  /** Write the animations (default true). */
  animations?: boolean;
  /** Textures are written by the caller (outfit export): no `TEXTURE_DROPPED`. */
  texturesWritten?: boolean;
}

export const TSO_EXPORT_DEFAULTS: {
  name: string;
  fps: number;
  skeleton: 'auto' | 'always' | 'never';
  normalScale: number;
} = {
  name: 'model',
  fps: 36,
  skeleton: 'auto',
  normalScale: 1,
};
