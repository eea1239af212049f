import type { Warning } from '@gltf-legacy/core';
import type { ViewerApi, ViewerState } from './api.js';
import {
  addToPool,
  type ConvertedModel,
  convertModel,
  exportModel,
  exportTargets,
  type FilePool,
  listModels,
  modelBase,
} from './convert.js';
import { formatById } from './registry.js';
import { ModelView } from './scene.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const previewMode = params.has('preview');
if (previewMode) document.body.classList.add('preview');

performance.mark('viewer:start');
const canvas = $<HTMLCanvasElement>('view');
const view = new ModelView(canvas, { loop: !previewMode });
performance.mark('viewer:renderer');
new ResizeObserver(() => view.resize()).observe(canvas);

const pool: FilePool = new Map();
let current: ConvertedModel | null = null;
let exportWarnings: Warning[] = [];
let lastError: string | null = null;

const status = $<HTMLParagraphElement>('status');
const modelsSelect = $<HTMLSelectElement>('models');
const statsTable = $<HTMLTableElement>('stats');
const clipsList = $<HTMLUListElement>('clips');
const playButton = $<HTMLButtonElement>('play');
const scrub = $<HTMLInputElement>('scrub');
const timeLabel = $<HTMLSpanElement>('time');
const warningsList = $<HTMLUListElement>('warnings');
const downloadButton = $<HTMLButtonElement>('download-glb');
const exportSelect = $<HTMLSelectElement>('export-format');
const exportButton = $<HTMLButtonElement>('export');

for (const f of exportTargets()) exportSelect.append(new Option(`${f.label} (${f.mainExtension})`, f.id));

function setStatus(text: string, error = false): void {
  status.textContent = text;
  status.classList.toggle('error', error);
}

function message(e: unknown): string {
  const err = e as { code?: string; message?: string };
  return err?.code ? `${err.code}: ${err.message}` : String(err?.message ?? e);
}

function renderWarnings(): void {
  warningsList.replaceChildren();
  const all = [...(current?.warnings ?? []), ...exportWarnings];
  if (!all.length)
    warningsList.append(
      Object.assign(document.createElement('li'), { className: 'none', textContent: 'none' }),
    );
  for (const w of all) {
    const li = document.createElement('li');
    li.textContent = `${w.code}${w.count > 1 ? ` ×${w.count}` : ''}: ${w.message}`;
    warningsList.append(li);
  }
}

function renderStats(): void {
  statsTable.replaceChildren();
  if (!current) return;
  const s = current.stats;
  const rows: [string, string | number][] = [
    ['Format', current.format],
    ['Files', current.files.join('\n')],
    ['Vertices', s.vertices],
    ['Triangles', s.triangles],
    ['Joints', s.joints],
    ['Morph targets', s.morphTargets],
    ['Animations', s.animations],
  ];
  for (const [k, v] of rows) {
    const tr = statsTable.insertRow();
    tr.insertCell().textContent = k;
    const cell = tr.insertCell();
    cell.textContent = String(v);
    if (k === 'Files') cell.className = 'files';
  }
}

function updateTime(t: number): void {
  scrub.value = String(t);
  timeLabel.textContent = `${t.toFixed(2)} s`;
}

function renderClips(): void {
  clipsList.replaceChildren();
  view.clips.forEach((clip, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = i === view.clipIndex ? 'clip active' : 'clip';
    b.textContent = `${clip.name || `clip ${i}`} (${clip.duration.toFixed(2)} s)`;
    b.addEventListener('click', () => {
      view.selectClip(i);
      view.setPlaying(true);
      renderClips();
    });
    const li = document.createElement('li');
    li.append(b);
    clipsList.append(li);
  });
  const has = view.clips.length > 0;
  playButton.disabled = scrub.disabled = !has;
  scrub.max = String(view.duration || 1);
  playButton.textContent = view.playing ? 'Pause' : 'Play';
  updateTime(view.time);
}

view.onTime = (t) => {
  const d = view.duration;
  updateTime(d > 0 ? t % d : t);
};

function renderModels(): void {
  const models = listModels(pool);
  modelsSelect.replaceChildren(...models.map((m) => new Option(`${m.name} (${m.format})`, m.name)));
  modelsSelect.disabled = models.length < 2;
  if (current) modelsSelect.value = current.name;
}

async function show(name: string): Promise<ViewerState> {
  setStatus(`Converting ${name}…`);
  exportWarnings = [];
  lastError = null;
  try {
    current = null;
    const converted = await convertModel(pool, name);
    await view.load(converted.glb);
    current = converted;
    const extra = converted.files.length - 1;
    setStatus(`Loaded ${name} (${converted.format}${extra > 0 ? ` + ${extra} companion(s)` : ''}).`);
  } catch (e) {
    current = null;
    view.clear();
    view.render();
    lastError = message(e);
    setStatus(`Could not load ${name}: ${lastError}`, true);
  }
  downloadButton.disabled = exportButton.disabled = !current;
  renderModels();
  renderStats();
  renderClips();
  renderWarnings();
  return state();
}

async function addFiles(files: [string, Uint8Array][], main?: string): Promise<ViewerState> {
  const added = addToPool(pool, files);
  const models = listModels(pool);
  const pick =
    (main && pool.has(main) ? main : undefined) ??
    models.find((m) => added.includes(m.name))?.name ??
    models[0]?.name;
  if (!pick) {
    lastError = `none of ${files.map((f) => f[0]).join(', ')} is a model the viewer knows`;
    setStatus(lastError, true);
    renderModels();
    return state();
  }
  return show(pick);
}

function state(): ViewerState {
  return {
    model: current?.name ?? null,
    format: current?.format ?? null,
    models: listModels(pool),
    stats: current
      ? {
          vertices: current.stats.vertices,
          triangles: current.stats.triangles,
          joints: current.stats.joints,
          animations: current.stats.animations,
          morphTargets: current.stats.morphTargets,
        }
      : null,
    clips: view.clips.map((c) => ({ name: c.name, duration: c.duration })),
    clip: view.clipIndex,
    time: view.time,
    playing: view.playing,
    warnings: [...(current?.warnings ?? []), ...exportWarnings],
    error: lastError,
  };
}

function download(name: string, bytes: Uint8Array, type = 'application/octet-stream'): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function readDropped(list: FileList | File[]): Promise<[string, Uint8Array][]> {
  return Promise.all(
    [...list].map(async (f) => [f.name, new Uint8Array(await f.arrayBuffer())] as [string, Uint8Array]),
  );
}

// --- events -------------------------------------------------------------------------------------
const drop = $<HTMLLabelElement>('drop');
const input = $<HTMLInputElement>('file-input');
input.addEventListener('change', async () => {
  if (input.files?.length) await addFiles(await readDropped(input.files));
  input.value = '';
});
for (const ev of ['dragenter', 'dragover'] as const) {
  document.addEventListener(ev, (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
}
document.addEventListener('dragleave', () => drop.classList.remove('over'));
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (e.dataTransfer?.files.length) await addFiles(await readDropped(e.dataTransfer.files));
});
modelsSelect.addEventListener('change', () => show(modelsSelect.value));
playButton.addEventListener('click', () => {
  view.setPlaying(!view.playing);
  playButton.textContent = view.playing ? 'Pause' : 'Play';
});
scrub.addEventListener('input', () => {
  view.setPlaying(false);
  playButton.textContent = 'Play';
  view.setTime(Number(scrub.value));
  updateTime(Number(scrub.value));
});
$<HTMLInputElement>('skeleton').addEventListener('change', (e) =>
  view.setSkeleton((e.target as HTMLInputElement).checked),
);
$<HTMLInputElement>('wireframe').addEventListener('change', (e) =>
  view.setWireframe((e.target as HTMLInputElement).checked),
);
$<HTMLButtonElement>('reframe').addEventListener('click', () => view.frame());
downloadButton.addEventListener('click', () => {
  if (current)
    download(`${modelBase(current.name, formatById(current.format))}.glb`, current.glb, 'model/gltf-binary');
});
exportButton.addEventListener('click', async () => {
  if (!current) return;
  const target = exportSelect.value;
  setStatus(`Exporting to ${target}…`);
  try {
    const { files, warnings } = await exportModel(
      current.document,
      target,
      modelBase(current.name, formatById(current.format)),
    );
    exportWarnings = warnings;
    for (const [name, bytes] of files) download(name, bytes);
    setStatus(`Exported ${[...files.keys()].join(', ')}.`);
  } catch (e) {
    exportWarnings = [];
    setStatus(`Export to ${target} failed: ${message(e)}`, true);
  }
  renderWarnings();
});

// --- API for thumbnails, `gltf-legacy view` and tests --------------------------------------------
const api: ViewerApi = {
  async loadServed(names, main) {
    const list: string[] = names ?? (await (await fetch('/__files/index.json')).json());
    const files = await Promise.all(
      list.map(
        async (n) =>
          [n, new Uint8Array(await (await fetch(`/__files/${encodeURIComponent(n)}`)).arrayBuffer())] as [
            string,
            Uint8Array,
          ],
      ),
    );
    return addFiles(files, main);
  },
  show,
  reset() {
    pool.clear();
    current = null;
    view.clear();
    view.render();
  },
  setTime(t) {
    view.setPlaying(false);
    view.setTime(t);
    updateTime(view.time);
  },
  state,
  pixelStats() {
    view.render();
    const c = document.createElement('canvas');
    c.width = canvas.width;
    c.height = canvas.height;
    const ctx = c.getContext('2d');
    if (!ctx) return { mean: 0, variance: 0 };
    ctx.drawImage(canvas, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    let sq = 0;
    const n = d.length / 4;
    for (let i = 0; i < d.length; i += 4) {
      const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
      sum += y;
      sq += y * y;
    }
    const mean = sum / n;
    return { mean, variance: sq / n - mean * mean };
  },
};
(window as unknown as { __viewer: ViewerApi }).__viewer = api;
document.body.dataset.ready = 'true';
if (params.has('served')) void api.loadServed();
