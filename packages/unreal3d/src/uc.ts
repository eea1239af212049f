/**
 * The `.uc` class file: only its `#exec` directives matter here (formats/unreal3d.md §5).
 * Parsing is case-insensitive, tolerant of spacing, skips `//` and `/* *\/` comments, keeps every
 * directive's raw line, and can describe several meshes per file.
 */

/** One `key=value` of a directive, as written. */
export interface UcParam {
  key: string;
  value: string;
}

/** One `#exec` line. */
export interface UcDirective {
  /** 0-based line number in the file. */
  line: number;
  /** The line as written (without its line break). */
  raw: string;
  /** First word, upper case: `MESH`, `MESHMAP`, `TEXTURE`, `AUDIO`, … */
  command: string;
  /** Second word, upper case: `IMPORT`, `SEQUENCE`, `SCALE`, … ('' if none). */
  action: string;
  params: UcParam[];
}

/** A parsed `.uc` file. */
export interface UcFile {
  text: string;
  directives: UcDirective[];
  /** Line break used by the file (`\r\n` or `\n`). */
  eol: string;
}

/**
 * Case-insensitive parameter lookup.
 *
 * ```ts
 * ucParam(d, 'numframes'); // '30' for `NUMFRAMES=30`
 * ```
 */
export function ucParam(d: UcDirective, key: string): string | undefined {
  const k = key.toUpperCase();
  for (const p of d.params) if (p.key.toUpperCase() === k) return p.value;
  return undefined;
}

/** Splits `KEY=value KEY2="quoted value"` (also tolerates spaces around `=`). */
function parseParams(s: string): { words: string[]; params: UcParam[] } {
  const words: string[] = [];
  const params: UcParam[] = [];
  const re = /([A-Za-z_][\w.]*)\s*=\s*("([^"]*)"|[^\s"]*)|("([^"]*)"|\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m[1] !== undefined) params.push({ key: m[1], value: m[3] !== undefined ? m[3] : m[2] });
    else if (!params.length) words.push(m[5] !== undefined ? m[5] : m[4]);
  }
  return { words, params };
}

/** Removes a `//` comment that is not inside quotes. */
function stripLineComment(s: string): string {
  let q = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') q = !q;
    else if (!q && c === '/' && s[i + 1] === '/') return s.slice(0, i);
  }
  return s;
}

/**
 * Parses a `.uc` file's `#exec` directives.
 *
 * ```ts
 * const uc = parseUc(text);
 * uc.directives.filter((d) => d.command === 'MESH' && d.action === 'SEQUENCE');
 * ```
 */
export function parseUc(text: string): UcFile {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const directives: UcDirective[] = [];
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    // Remove block comments (possibly spanning lines).
    let visible = '';
    let k = 0;
    while (k < line.length) {
      if (inBlock) {
        const end = line.indexOf('*/', k);
        if (end < 0) {
          k = line.length;
          break;
        }
        inBlock = false;
        k = end + 2;
      } else {
        const start = line.indexOf('/*', k);
        const lineComment = line.indexOf('//', k);
        if (start < 0 || (lineComment >= 0 && lineComment < start)) {
          visible += line.slice(k);
          break;
        }
        visible += line.slice(k, start);
        inBlock = true;
        k = start + 2;
      }
    }
    line = stripLineComment(visible).trim();
    const m = /^#\s*exec\b\s*(.*)$/i.exec(line);
    if (!m) continue;
    const { words, params } = parseParams(m[1]);
    directives.push({
      line: i,
      raw: lines[i],
      command: (words[0] ?? '').toUpperCase(),
      action: (words[1] ?? '').toUpperCase(),
      params,
    });
  }
  return { text, directives, eol };
}

/** A `MESH SEQUENCE` with its notifies. */
export interface UcSequence {
  name: string;
  startFrame: number;
  numFrames: number;
  /** Frames per second (default 30). */
  rate: number;
  group?: string;
  notifies: { time: number; function: string }[];
}

/** A texture slot: `MESHMAP SETTEXTURE NUM=` → texture name → `TEXTURE IMPORT FILE=`. */
export interface UcTexture {
  num: number;
  name: string;
  /** File of the first `TEXTURE IMPORT` with that name (base name, directories removed). */
  file?: string;
}

/** Everything a `.uc` says about one mesh. */
export interface UcMesh {
  name: string;
  anivFile?: string;
  dataFile?: string;
  unmirror: boolean;
  zeroTex: boolean;
  /** `MESH ORIGIN` X Y Z (raw units) and PITCH YAW ROLL (1/256 turn units). */
  origin: { x: number; y: number; z: number; pitch: number; yaw: number; roll: number };
  sequences: UcSequence[];
  /** `MESHMAP SCALE` X Y Z (default 1 1 1). */
  scale: [number, number, number];
  textures: UcTexture[];
  /** Every directive that names this mesh (or its meshmap), in file order. */
  directives: UcDirective[];
}

function num(v: string | undefined, dflt: number): number {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n : dflt;
}

function fileBase(p: string | undefined): string | undefined {
  if (p === undefined) return undefined;
  const i = Math.max(p.lastIndexOf('\\'), p.lastIndexOf('/'));
  return i >= 0 ? p.slice(i + 1) : p;
}

function truthy(v: string | undefined): boolean {
  if (v === undefined) return false;
  const s = v.trim().toLowerCase();
  return s === '1' || s === 'true';
}

/**
 * Names of the meshes a `.uc` imports (`MESH IMPORT MESH=`), in order.
 *
 * ```ts
 * ucMeshNames(parseUc(sporifierUc)); // ['Sporifier', 'Sporifier3P']
 * ```
 */
export function ucMeshNames(uc: UcFile): string[] {
  const out: string[] = [];
  for (const d of uc.directives) {
    if (d.command === 'MESH' && d.action === 'IMPORT') {
      const m = ucParam(d, 'MESH');
      if (m && !out.includes(m)) out.push(m);
    }
  }
  return out;
}

/**
 * The mesh of a `.uc` that a data file belongs to: the `MESH IMPORT` whose `DATAFILE` (base name)
 * or `ANIVFILE` matches `fileName`, else the one whose `MESH=` equals the file's stem
 * (`Key_d.3d` → `Key`). Case-insensitive. Undefined when none matches.
 *
 * ```ts
 * ucMeshForFile(parseUc(marRifleUc), 'mar_rifle_d.3d'); // 'mar'
 * ```
 */
export function ucMeshForFile(uc: UcFile, fileName: string): string | undefined {
  const lower = fileBase(fileName)?.toLowerCase() ?? '';
  for (const d of uc.directives) {
    if (d.command !== 'MESH' || d.action !== 'IMPORT') continue;
    const df = fileBase(ucParam(d, 'DATAFILE'))?.toLowerCase();
    const af = fileBase(ucParam(d, 'ANIVFILE'))?.toLowerCase();
    if (df === lower || af === lower) return ucParam(d, 'MESH');
  }
  const stem = lower.replace(/_[ad]\.3d$/i, '');
  for (const name of ucMeshNames(uc)) if (name.toLowerCase() === stem) return name;
  return undefined;
}

/**
 * Collects the directives of one mesh: `MESH *` with `MESH=name`, `MESHMAP *` with
 * `MESHMAP=name`, and the `TEXTURE IMPORT`s its skins name.
 *
 * ```ts
 * const mesh = ucMesh(parseUc(text), 'Sporifier');
 * mesh.sequences.map((s) => s.name); // ['All', 'Still', 'Fire', 'Down', 'Select']
 * ```
 */
export function ucMesh(uc: UcFile, name: string): UcMesh {
  const lname = name.toLowerCase();
  const mesh: UcMesh = {
    name,
    unmirror: false,
    zeroTex: false,
    origin: { x: 0, y: 0, z: 0, pitch: 0, yaw: 0, roll: 0 },
    sequences: [],
    scale: [1, 1, 1],
    textures: [],
    directives: [],
  };
  const textureFiles = new Map<string, string>();
  for (const d of uc.directives) {
    if (d.command === 'TEXTURE' && d.action === 'IMPORT') {
      const n = ucParam(d, 'NAME');
      const f = ucParam(d, 'FILE');
      if (n && f && !textureFiles.has(n.toLowerCase())) textureFiles.set(n.toLowerCase(), fileBase(f) ?? f);
    }
  }
  for (const d of uc.directives) {
    const target =
      d.command === 'MESH' ? ucParam(d, 'MESH') : d.command === 'MESHMAP' ? ucParam(d, 'MESHMAP') : undefined;
    if (target === undefined || target.toLowerCase() !== lname) continue;
    mesh.directives.push(d);
    const key = `${d.command} ${d.action}`;
    if (key === 'MESH IMPORT') {
      mesh.anivFile = ucParam(d, 'ANIVFILE');
      mesh.dataFile = ucParam(d, 'DATAFILE');
      mesh.unmirror = truthy(ucParam(d, 'UNMIRROR'));
      mesh.zeroTex = truthy(ucParam(d, 'ZEROTEX'));
    } else if (key === 'MESH ORIGIN') {
      mesh.origin = {
        x: num(ucParam(d, 'X'), 0),
        y: num(ucParam(d, 'Y'), 0),
        z: num(ucParam(d, 'Z'), 0),
        pitch: num(ucParam(d, 'PITCH'), 0),
        yaw: num(ucParam(d, 'YAW'), 0),
        roll: num(ucParam(d, 'ROLL'), 0),
      };
    } else if (key === 'MESH SEQUENCE') {
      const seq: UcSequence = {
        name: ucParam(d, 'SEQ') ?? '',
        startFrame: Math.max(0, Math.trunc(num(ucParam(d, 'STARTFRAME'), 0))),
        numFrames: Math.max(0, Math.trunc(num(ucParam(d, 'NUMFRAMES'), 1))),
        rate: num(ucParam(d, 'RATE'), 30),
        notifies: [],
      };
      const g = ucParam(d, 'GROUP');
      if (g !== undefined) seq.group = g;
      mesh.sequences.push(seq);
    } else if (key === 'MESH NOTIFY') {
      const seqName = (ucParam(d, 'SEQ') ?? '').toLowerCase();
      const seq = mesh.sequences.find((s) => s.name.toLowerCase() === seqName);
      if (seq)
        seq.notifies.push({ time: num(ucParam(d, 'TIME'), 0), function: ucParam(d, 'FUNCTION') ?? '' });
    } else if (key === 'MESHMAP SCALE') {
      mesh.scale = [num(ucParam(d, 'X'), 1), num(ucParam(d, 'Y'), 1), num(ucParam(d, 'Z'), 1)];
    } else if (key === 'MESHMAP SETTEXTURE') {
      const n = Math.trunc(num(ucParam(d, 'NUM'), 0));
      const t = ucParam(d, 'TEXTURE') ?? '';
      const tex: UcTexture = { num: n, name: t };
      const f = textureFiles.get(t.toLowerCase());
      if (f) tex.file = f;
      const at = mesh.textures.findIndex((x) => x.num === n);
      if (at >= 0) mesh.textures[at] = tex;
      else mesh.textures.push(tex);
    }
  }
  return mesh;
}

/** Directive keys {@link writeUc} generates itself; others are copied from `extraDirectives`. */
export const UC_KNOWN_KEYS = [
  'MESH IMPORT',
  'MESH ORIGIN',
  'MESH SEQUENCE',
  'MESH NOTIFY',
  'MESHMAP NEW',
  'MESHMAP SCALE',
  'MESHMAP SETTEXTURE',
];

/** Formats a number for a `.uc` (shortest form that reads back to the same double). */
export function ucNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  let s = String(v);
  if (s.includes('e')) s = v.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
  return s;
}

/** Options of {@link writeUc}. */
export interface WriteUcOptions {
  /** Base name of the `_d.3d`/`_a.3d` files (default: the mesh name). */
  fileBase?: string;
  /** Class name (default: the mesh name). */
  className?: string;
  /** Raw directive lines to keep (unknown directives of the original `.uc`, e.g. `MESH LODPARAMS`). */
  extraDirectives?: string[];
  eol?: string;
}

/**
 * Writes a small `.uc` class holding the `#exec` directives of one mesh.
 *
 * ```ts
 * const text = writeUc({ ...mesh, name: 'Fox' }, { fileBase: 'Fox' });
 * ```
 */
export function writeUc(mesh: UcMesh, options: WriteUcOptions = {}): string {
  const n = mesh.name;
  const base = options.fileBase ?? n;
  const eol = options.eol ?? '\r\n';
  const L: string[] = [];
  L.push(`class ${options.className ?? n} extends Actor;`, '');
  let imp = `#exec MESH IMPORT MESH=${n} ANIVFILE=MODELS\\${base}_a.3d DATAFILE=MODELS\\${base}_d.3d X=0 Y=0 Z=0`;
  if (mesh.unmirror) imp += ' UNMIRROR=1';
  if (mesh.zeroTex) imp += ' ZEROTEX=1';
  L.push(imp);
  const o = mesh.origin;
  let org = `#exec MESH ORIGIN MESH=${n} X=${ucNumber(o.x)} Y=${ucNumber(o.y)} Z=${ucNumber(o.z)}`;
  if (o.pitch || o.yaw || o.roll)
    org += ` PITCH=${ucNumber(o.pitch)} YAW=${ucNumber(o.yaw)} ROLL=${ucNumber(o.roll)}`;
  L.push(org, '');
  for (const s of mesh.sequences) {
    let line = `#exec MESH SEQUENCE MESH=${n} SEQ=${s.name} STARTFRAME=${s.startFrame} NUMFRAMES=${s.numFrames} RATE=${ucNumber(s.rate)}`;
    if (s.group !== undefined) line += ` GROUP=${s.group}`;
    L.push(line);
  }
  for (const s of mesh.sequences) {
    for (const nt of s.notifies)
      L.push(`#exec MESH NOTIFY MESH=${n} SEQ=${s.name} TIME=${ucNumber(nt.time)} FUNCTION=${nt.function}`);
  }
  L.push('', `#exec MESHMAP NEW MESHMAP=${n} MESH=${n}`);
  L.push(
    `#exec MESHMAP SCALE MESHMAP=${n} X=${ucNumber(mesh.scale[0])} Y=${ucNumber(mesh.scale[1])} Z=${ucNumber(mesh.scale[2])}`,
  );
  for (const line of options.extraDirectives ?? []) L.push(line);
  if (mesh.textures.length) L.push('');
  const imported = new Set<string>();
  for (const t of mesh.textures) {
    if (imported.has(t.name.toLowerCase())) continue;
    imported.add(t.name.toLowerCase());
    L.push(`#exec TEXTURE IMPORT NAME=${t.name} FILE=Textures\\${t.file ?? `${t.name}.pcx`} GROUP=Skins`);
  }
  for (const t of mesh.textures)
    L.push(`#exec MESHMAP SETTEXTURE MESHMAP=${n} NUM=${t.num} TEXTURE=${t.name}`);
  L.push('', 'defaultproperties', '{', '    DrawType=DT_Mesh', `    Mesh=${n}`, '}', '');
  return L.join(eol);
}

/** A comparable summary of a mesh's meaning (for "unchanged since import" checks). */
export function ucMeshSignature(mesh: UcMesh): string {
  const r = (v: number) => Math.round(v * 1e6) / 1e6;
  return JSON.stringify({
    name: mesh.name.toLowerCase(),
    origin: [
      mesh.origin.x,
      mesh.origin.y,
      mesh.origin.z,
      mesh.origin.pitch,
      mesh.origin.yaw,
      mesh.origin.roll,
    ].map(r),
    scale: mesh.scale.map(r),
    seq: mesh.sequences.map((s) => [
      s.name,
      s.startFrame,
      s.numFrames,
      r(s.rate),
      s.group ?? null,
      s.notifies.map((x) => [r(x.time), x.function]),
    ]),
    tex: [...mesh.textures].sort((a, b) => a.num - b.num).map((t) => [t.num, t.name.toLowerCase()]),
  });
}
