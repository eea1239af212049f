/** Options of the TSO importer and their defaults. */

/** Options of {@link importTso}. */
export interface TsoImportOptions {
  /**
   * Unit of `.anim` durations: `auto` reads seconds when the duration is smaller than the frame
   * count (FreeSO-made files), else milliseconds (original files).
   */
  durationUnit?: 'auto' | 'ms' | 's';
  /** Frame rate used when an animation's duration is unusable. */
  fallbackFps?: number;
  /** Name of the mesh node (default: the mesh file's stem or `mesh`). */
  meshName?: string;
}

export const TSO_IMPORT_DEFAULTS: Required<Omit<TsoImportOptions, 'meshName'>> = {
  durationUnit: 'auto',
  fallbackFps: 36,
};
