/**
 * The three.js side of the viewer: renderer, neutral lighting (RoomEnvironment + two lights, so
 * metallic materials do not render black), orbit camera framing the model's bounds, animation
 * mixer, skeleton and wireframe toggles.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** Background of the canvas (also of thumbnails). */
export const BACKGROUND = 0x30343b;

/** Direction the fixed camera looks from (glTF: +Y up, model faces +Z), before normalizing. */
const VIEW_DIRECTION = new THREE.Vector3(0.8, 0.55, 1.4).normalize();

/** Options of {@link ModelView}. */
export interface ModelViewOptions {
  /** Render continuously with requestAnimationFrame (false: render only on demand, for thumbnails). */
  loop?: boolean;
  /**
   * Image-based lighting from three's RoomEnvironment. Its prefiltering (PMREM: 256-sample GGX
   * shaders) takes ~20 s in software WebGL (Chromium without a GPU), so `'auto'` turns it off there
   * and shows metals as dielectrics instead (a metal without an environment renders black).
   */
  environment?: boolean | 'auto';
}

export const MODEL_VIEW_DEFAULTS: Required<ModelViewOptions> = { loop: true, environment: 'auto' };

/** True when WebGL runs in software (SwiftShader, llvmpipe): no GPU. */
export function isSoftwareRenderer(renderer: THREE.WebGLRenderer): boolean {
  const gl = renderer.getContext();
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}

/**
 * A canvas showing one glTF model at a time.
 *
 * ```ts
 * const view = new ModelView(document.querySelector('canvas')!);
 * await view.load(glbBytes);
 * view.playClip(0);
 * ```
 */
export class ModelView {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
  readonly controls: OrbitControls;
  clips: THREE.AnimationClip[] = [];
  /** Index of the clip shown, or -1. */
  clipIndex = -1;
  playing = false;
  /** Whether image-based lighting is on (see {@link ModelViewOptions.environment}). */
  readonly environment: boolean;
  private root: THREE.Object3D | null = null;
  private mixer: THREE.AnimationMixer | null = null;
  private action: THREE.AnimationAction | null = null;
  private skeleton: THREE.SkeletonHelper | null = null;
  private showSkeleton = false;
  private wireframe = false;
  private lastTick = performance.now();
  private readonly options: Required<ModelViewOptions>;
  /** Called every frame while playing (time in seconds). */
  onTime?: (t: number) => void;

  constructor(
    readonly canvas: HTMLCanvasElement,
    options: ModelViewOptions = {},
  ) {
    this.options = { ...MODEL_VIEW_DEFAULTS, ...options };
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    this.renderer.toneMapping = THREE.NeutralToneMapping;
    this.scene.background = new THREE.Color(BACKGROUND);
    this.environment =
      this.options.environment === 'auto' ? !isSoftwareRenderer(this.renderer) : this.options.environment;
    if (this.environment) {
      const pmrem = new THREE.PMREMGenerator(this.renderer);
      this.scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
      pmrem.dispose();
    }
    // neutral lighting: a dim room environment (so metallic materials are not black), a key
    // light from the upper right front and a weak headlight; white materials stay below clipping
    this.scene.environmentIntensity = 0.2;
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404048, this.environment ? 0.15 : 0.5));
    const sun = new THREE.DirectionalLight(0xffffff, 1.1);
    sun.position.set(3, 6, 4);
    this.scene.add(sun);
    this.camera.add(new THREE.DirectionalLight(0xffffff, 0.2));
    this.scene.add(this.camera);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.render());
    this.resize();
    if (this.options.loop) this.renderer.setAnimationLoop(() => this.tick());
  }

  /** Matches the drawing buffer to the canvas' CSS size. */
  resize(): void {
    const w = Math.max(1, this.canvas.clientWidth || this.canvas.width);
    const h = Math.max(1, this.canvas.clientHeight || this.canvas.height);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  /** Shows a .glb (replacing the previous model), at the first frame of its first clip, framed. */
  async load(glb: Uint8Array): Promise<GLTF> {
    this.clear();
    const ab = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
    const gltf = await new GLTFLoader().parseAsync(ab, '');
    this.root = gltf.scene;
    this.scene.add(gltf.scene);
    this.clips = gltf.animations;
    this.mixer = new THREE.AnimationMixer(gltf.scene);
    this.skeleton = new THREE.SkeletonHelper(gltf.scene);
    this.skeleton.visible = this.showSkeleton;
    this.scene.add(this.skeleton);
    if (!this.environment) showMetalsAsDielectrics(gltf.scene);
    this.setWireframe(this.wireframe);
    if (this.clips.length) this.selectClip(0);
    this.frame();
    return gltf;
  }

  /** Removes the model. */
  clear(): void {
    if (this.root) this.scene.remove(this.root);
    if (this.skeleton) {
      this.scene.remove(this.skeleton);
      this.skeleton.dispose();
    }
    this.mixer?.stopAllAction();
    this.root = this.mixer = this.action = this.skeleton = null;
    this.clips = [];
    this.clipIndex = -1;
    this.playing = false;
  }

  /** Bounds of the model as posed now (skinning applied). */
  bounds(): THREE.Box3 {
    const box = new THREE.Box3();
    if (!this.root) return box;
    this.root.updateMatrixWorld(true);
    box.setFromObject(this.root, true);
    if (box.isEmpty()) {
      // no meshes (e.g. an animation alone): frame the nodes
      this.root.traverse((o) => box.expandByPoint(o.getWorldPosition(new THREE.Vector3())));
    }
    return box;
  }

  /** Points the camera at the model from the fixed direction so its bounding sphere fits. */
  frame(): void {
    const box = this.bounds();
    const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    const radius = box.isEmpty() ? 1 : Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-4);
    const fov = THREE.MathUtils.degToRad(this.camera.fov);
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    const dist = (radius / Math.sin(fit / 2)) * 1.05;
    this.camera.position.copy(center).addScaledVector(VIEW_DIRECTION, dist);
    this.camera.near = Math.max(dist - radius * 2, dist / 1000);
    this.camera.far = dist + radius * 4;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    this.render();
  }

  /** Makes clip `index` the current one, paused at time 0. */
  selectClip(index: number): void {
    if (!this.mixer || !this.clips[index]) return;
    this.mixer.stopAllAction();
    this.action = this.mixer.clipAction(this.clips[index]);
    this.action.play();
    this.clipIndex = index;
    this.mixer.setTime(0);
    this.render();
  }

  /** Duration of the current clip in seconds (0 without one). */
  get duration(): number {
    return this.action?.getClip().duration ?? 0;
  }

  /** Current time in the clip (seconds). */
  get time(): number {
    return this.action?.time ?? 0;
  }

  /** Poses the model at `t` seconds of the current clip. */
  setTime(t: number): void {
    if (!this.mixer || !this.action) return;
    this.mixer.setTime(Math.max(0, t));
    this.render();
  }

  /** Plays or pauses the current clip. */
  setPlaying(playing: boolean): void {
    this.playing = playing && !!this.action;
    this.lastTick = performance.now();
  }

  setSkeleton(visible: boolean): void {
    this.showSkeleton = visible;
    if (this.skeleton) this.skeleton.visible = visible;
    this.render();
  }

  setWireframe(on: boolean): void {
    this.wireframe = on;
    this.root?.traverse((o) => {
      const m = (o as THREE.Mesh).material;
      if (!m) return;
      for (const mat of Array.isArray(m) ? m : [m])
        if ('wireframe' in mat) (mat as THREE.MeshStandardMaterial).wireframe = on;
    });
    this.render();
  }

  render(): void {
    this.renderer.render(this.scene, this.camera);
  }

  /** Each display frame: advances and draws only while playing (other changes draw at once). */
  private tick(): void {
    const now = performance.now();
    const dt = (now - this.lastTick) / 1000;
    this.lastTick = now;
    if (!this.playing || !this.mixer) return;
    this.mixer.update(dt);
    this.onTime?.(this.time);
    this.render();
  }
}

/** Without an environment map a metal reflects nothing and renders black: show it as a dielectric. */
function showMetalsAsDielectrics(root: THREE.Object3D): void {
  root.traverse((o) => {
    const m = (o as THREE.Mesh).material;
    if (!m) return;
    for (const mat of Array.isArray(m) ? m : [m]) {
      const std = mat as THREE.MeshStandardMaterial;
      if (std.isMeshStandardMaterial && (std.metalness > 0 || std.metalnessMap)) {
        std.metalness = 0;
        std.metalnessMap = null;
        std.roughness = Math.max(std.roughness, 0.5);
        std.needsUpdate = true;
      }
    }
  });
}
