/** What the page exposes as `window.__viewer` (used by thumbnails, `view` and the tests). */
export interface ViewerState {
  /** Main file of the model shown, or null. */
  model: string | null;
  format: string | null;
  models: { name: string; format: string }[];
  stats: {
    vertices: number;
    triangles: number;
    joints: number;
    animations: number;
    morphTargets: number;
  } | null;
  clips: { name: string; duration: number }[];
  clip: number;
  time: number;
  playing: boolean;
  warnings: { code: string; message: string; count: number }[];
  error: string | null;
}

export interface ViewerApi {
  /** Fetches files from the serving page's `/__files/` (all when `names` is omitted) and shows `main` or the first model. */
  loadServed(names?: string[], main?: string): Promise<ViewerState>;
  /** Shows a model of the pool. */
  show(name: string): Promise<ViewerState>;
  /** Removes every file from the pool. */
  reset(): void;
  setTime(t: number): void;
  state(): ViewerState;
  /** Mean and variance of the canvas' luminance (0..255), after a render. */
  pixelStats(): { mean: number; variance: number };
}
