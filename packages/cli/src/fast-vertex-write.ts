// Owns the fast writing of vertex data (attributes and morph targets) into a .glb or .gltf.
// glTF-Transform's writer interleaves vertex accessors value by value through a DataView, with
// four property lookups per vertex and accessor, then copies the views into one buffer, which
// encodeGlb copies into the file: for an Unreal all-frames conversion (400 morph-target
// accessors × 47 526 vertices) that was ~1.3 s of a 2.5 s conversion and three output-sized
// buffers at the peak. This writer-only extension claims those accessors before the core writer,
// writes their definitions and buffer views (one per primitive, attributes interleaved, each
// padded to 4 bytes, the same byte stride; morph targets one view per accessor) after the core
// writer's bytes, and streamFastGlb / writeFastJSON hand the file over in pieces taken straight
// from the accessors (StreamedFile: written piece by piece, never assembled), so every value
// keeps its exact bits and the peak holds the document plus a 1 MiB slab instead of a second
// copy. The extension is never named in the output: it removes itself from `extensionsUsed`.
import { endianness } from 'node:os';
import { extendBounds } from '@gltf-legacy/core';
import {
  type Accessor,
  type Document,
  Extension,
  Format,
  GLB_BUFFER,
  type GLTF,
  type Graph,
  type PlatformIO,
  type Property,
  PropertyType,
  type TypedArray,
  VertexLayout,
  WriterContext,
} from '@gltf-transform/core';
import { encodeGlb, glbHead } from './gltf-io.js';
import { type OutputData, StreamedFile } from './streamed-file.js';

const NAME = 'GLTF_LEGACY_fast_vertex_write';
const ARRAY_BUFFER = WriterContext.BufferViewUsage.ARRAY_BUFFER;

/** Copies `count` elements of `size` bytes from `src` into `dst` at `offset`, every `stride` bytes. */
function copyStrided(
  src: Uint8Array,
  dst: Uint8Array,
  count: number,
  size: number,
  offset: number,
  stride: number,
) {
  if (size === stride && offset === 0) {
    dst.set(src.subarray(0, count * size));
    return;
  }
  // copy in the widest unit that divides the element and its alignment (stride and offset are
  // multiples of 4); the common element sizes get a loop without an inner loop
  const unit =
    size % 4 === 0 && src.byteOffset % 4 === 0 ? 4 : size % 2 === 0 && src.byteOffset % 2 === 0 ? 2 : 1;
  const View = unit === 4 ? Uint32Array : unit === 2 ? Uint16Array : Uint8Array;
  const s = new View(src.buffer as ArrayBuffer, src.byteOffset, (count * size) / unit);
  const d = new View(dst.buffer as ArrayBuffer, dst.byteOffset, dst.byteLength / unit);
  const n = size / unit;
  const step = stride / unit;
  let o = offset / unit;
  if (n === 1) for (let k = 0; k < count; k++, o += step) d[o] = s[k];
  else if (n === 2)
    for (let k = 0; k < 2 * count; k += 2, o += step) {
      d[o] = s[k];
      d[o + 1] = s[k + 1];
    }
  else if (n === 3)
    for (let k = 0; k < 3 * count; k += 3, o += step) {
      d[o] = s[k];
      d[o + 1] = s[k + 1];
      d[o + 2] = s[k + 2];
    }
  else for (let i = 0, k = 0; i < count; i++, o += step) for (let w = 0; w < n; w++) d[o + w] = s[k++];
}

const pad4 = (n: number) => Math.ceil(n / 4) * 4;

/**
 * Per-component minimum and maximum of the finite values, as `Accessor.getMin`/`getMax` give
 * them (raw component values, not normalized), in one pass.
 */
function bounds(array: TypedArray, n: number): { min: number[]; max: number[] } {
  const min = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  const max = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
  const float = array instanceof Float32Array || array instanceof Float64Array;
  if (n === 3 && !float) {
    // integer VEC3 (quantized positions): core's one-pass loop, no finiteness test
    extendBounds(array, min, max);
    return { min, max };
  }
  for (let j = 0; j < n; j++) {
    let lo = min[j];
    let hi = max[j];
    for (let i = j; i < array.length; i += n) {
      const v = array[i];
      if (float && v - v !== 0) continue; // NaN and ±Infinity are skipped, as getMin/getMax do
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    min[j] = lo;
    max[j] = hi;
  }
  return { min, max };
}

/**
 * The accessor's JSON definition, as `WriterContext.createAccessorDef` makes it (the same keys
 * and values), with the bounds of POSITION attributes and animation inputs from {@link bounds}.
 */
function accessorDef(context: WriterContext, accessor: Accessor, graph: Graph<Property>): GLTF.IAccessor {
  const def = context.createPropertyDef(accessor) as GLTF.IAccessor;
  def.type = accessor.getType();
  def.componentType = accessor.getComponentType();
  def.count = accessor.getCount();
  const needsBounds = graph
    .listParentEdges(accessor)
    .some(
      (edge) =>
        (edge.getName() === 'attributes' && (edge.getAttributes() as { key?: string }).key === 'POSITION') ||
        edge.getName() === 'input',
    );
  if (needsBounds) {
    const { min, max } = bounds(accessor.getArray()!, accessor.getElementSize());
    def.max = max.map(Math.fround);
    def.min = min.map(Math.fround);
  }
  if (accessor.getNormalized()) def.normalized = accessor.getNormalized();
  return def;
}

/** One buffer view of vertex data: its accessors, interleaved, and its place in the buffer. */
interface Group {
  accessors: Accessor[];
  defs: GLTF.IAccessor[];
  count: number;
  byteStride: number;
  /** Byte offset in the buffer, set by `write`. */
  byteOffset: number;
}

/** The vertex data this writer left out of the core writer's buffer: appended after it. */
export interface VertexTail {
  /** Where the vertex data starts in the (single) buffer: the core's bytes, padded to 4. */
  start: number;
  /** The buffer's whole length. */
  byteLength: number;
  /** The .gltf buffer URI (undefined for .glb). */
  uri?: string;
  groups: Group[];
}

/** Bytes per piece when vertex data is interleaved or padded on its way into the file. */
const SLAB_BYTES = 1 << 20;

/**
 * The buffer's bytes in pieces: the core writer's bytes, zeros up to `tail.start`, then each
 * group of vertex data — a morph target's deltas whose elements need no padding straight from
 * their typed array, the others interleaved/padded through one scratch slab of ~1 MiB. Each piece
 * is valid until the next is asked for (see {@link StreamedFile}).
 */
function* bufferPieces(tail: VertexTail, core: Uint8Array | undefined): Generator<Uint8Array> {
  let at = 0;
  if (core?.byteLength) {
    yield core;
    at = core.byteLength;
  }
  if (tail.start > at) yield new Uint8Array(tail.start - at);
  at = tail.start;
  let slab: Uint8Array | undefined;
  for (const g of tail.groups) {
    if (g.byteOffset !== at) throw new Error(`internal: vertex data at ${g.byteOffset}, expected ${at}`);
    at += g.count * g.byteStride;
    const first = g.accessors[0];
    const firstSize = first.getElementSize() * first.getComponentSize();
    if (g.accessors.length === 1 && firstSize === g.byteStride) {
      const array = first.getArray()!;
      yield new Uint8Array(array.buffer, array.byteOffset, g.count * firstSize);
      continue;
    }
    const per = Math.max(1, Math.floor(SLAB_BYTES / g.byteStride));
    if (!slab || slab.byteLength < per * g.byteStride) slab = new Uint8Array(per * g.byteStride);
    for (let k0 = 0; k0 < g.count; k0 += per) {
      const n = Math.min(per, g.count - k0);
      const view = slab.subarray(0, n * g.byteStride);
      view.fill(0); // the padding of each element stays 0, whatever the slab held before
      let offset = 0;
      for (const accessor of g.accessors) {
        const array = accessor.getArray()!;
        const size = accessor.getElementSize() * accessor.getComponentSize();
        copyStrided(
          new Uint8Array(array.buffer, array.byteOffset + k0 * size, n * size),
          view,
          n,
          size,
          offset,
          g.byteStride,
        );
        offset += pad4(size);
      }
      yield view;
    }
  }
  if (at !== tail.byteLength)
    throw new Error(`internal: vertex data ends at ${at}, buffer at ${tail.byteLength}`);
}

/**
 * The writer-only extension. It claims the vertex accessors and writes their definitions and
 * buffer views into the JSON; their bytes are not in the core writer's buffer but described by
 * `tail`, for {@link streamFastGlb} / {@link writeFastJSON} to hand straight to the file.
 */
export class FastVertexWrite extends Extension {
  static override readonly EXTENSION_NAME = NAME;
  override readonly extensionName = NAME;
  override readonly prewriteTypes = [PropertyType.ACCESSOR];
  private groups: Group[] = [];
  tail: VertexTail | undefined;

  override read(): this {
    return this;
  }

  override prewrite(context: WriterContext): this {
    const json = context.jsonDoc.json;
    json.accessors ??= [];
    const graph = this.document.getGraph();
    // group as the core writer does: by usage and first parent
    const groups = new Map<string, Accessor[]>();
    const parentIds = new Map<Property, number>();
    const interleaved = context.options.vertexLayout === VertexLayout.INTERLEAVED;
    for (const accessor of this.document.getRoot().listAccessors()) {
      if (!accessor.getBuffer() || !accessor.getArray() || accessor.getSparse()) continue;
      if (context.accessorIndexMap.has(accessor) || context.getAccessorUsage(accessor) !== ARRAY_BUFFER)
        continue;
      const parent = graph.listParents(accessor).find((p) => p.propertyType !== PropertyType.ROOT);
      if (!parent) continue;
      let id = parentIds.get(parent);
      if (id === undefined) parentIds.set(parent, (id = parentIds.size));
      // morph targets: one view per accessor (each frame's deltas contiguous, as clients upload them)
      const separate = !interleaved || parent.propertyType === PropertyType.PRIMITIVE_TARGET;
      const key = separate ? `s${groups.size}` : `p${id}`;
      const group = groups.get(key);
      if (group) group.push(accessor);
      else groups.set(key, [accessor]);
    }
    for (const accessors of groups.values()) {
      const count = accessors[0].getCount();
      if (!count || accessors.some((a) => a.getCount() !== count)) continue; // left to the core writer
      let byteStride = 0;
      const defs: GLTF.IAccessor[] = [];
      for (const accessor of accessors) {
        const def = accessorDef(context, accessor, graph);
        def.byteOffset = byteStride;
        byteStride += pad4(accessor.getElementSize() * accessor.getComponentSize());
        context.accessorIndexMap.set(accessor, json.accessors.length);
        json.accessors.push(def);
        defs.push(def);
      }
      this.groups.push({ accessors, defs, count, byteStride, byteOffset: 0 });
    }
    return this;
  }

  override write(context: WriterContext): this {
    const json = context.jsonDoc.json;
    json.extensionsUsed = json.extensionsUsed?.filter((n) => n !== NAME);
    if (!this.groups.length) return this;
    const buffer = this.document.getRoot().listBuffers()[0];
    const bufferDef = json.buffers![context.bufferIndexMap.get(buffer)!];
    json.bufferViews ??= [];
    const start = pad4(bufferDef.byteLength ?? 0);
    let at = start;
    for (const g of this.groups) {
      g.byteOffset = at;
      const index = json.bufferViews.length;
      json.bufferViews.push({
        buffer: context.bufferIndexMap.get(buffer)!,
        byteOffset: at,
        byteLength: g.count * g.byteStride,
        byteStride: g.byteStride,
        target: WriterContext.BufferViewTarget.ARRAY_BUFFER,
      });
      for (const def of g.defs) def.bufferView = index;
      at += g.count * g.byteStride;
    }
    bufferDef.byteLength = at;
    // a .gltf whose buffer held only vertex data: the core writer gave it no file name
    if (context.options.format === Format.GLTF && !bufferDef.uri)
      bufferDef.uri = context.bufferURIGenerator.createURI(buffer, 'bin');
    this.tail = { start, byteLength: at, uri: bufferDef.uri, groups: this.groups };
    this.groups = [];
    return this;
  }
}

/** Whether the fast path applies (else the core writer does everything). */
function eligible(doc: Document): boolean {
  const root = doc.getRoot();
  // Draco and meshopt (and instancing) write accessors themselves; the tail holds one buffer;
  // typed arrays copy native byte order, glTF is little-endian
  return (
    root.listBuffers().length === 1 &&
    !root.listExtensionsUsed().some((e) => e.prewriteTypes.includes(PropertyType.ACCESSOR)) &&
    endianness() === 'LE'
  );
}

async function writeWithTail(
  io: PlatformIO,
  doc: Document,
  format: Format,
): Promise<{ json: GLTF.IGLTF; resources: Record<string, Uint8Array>; tail?: VertexTail }> {
  const extension = doc.createExtension(FastVertexWrite);
  try {
    const { json, resources } = await io.writeJSON(doc, { format });
    return { json, resources, tail: extension.tail };
  } finally {
    extension.dispose();
  }
}

/**
 * A .glb of `doc` as a {@link StreamedFile}: the vertex data goes straight from the accessors into
 * the file, piece by piece, never into one buffer (NodeIO's writer copies it into buffer views,
 * then into one buffer, then into the file: three output-sized copies at the peak). Documents the
 * fast path does not apply to (Draco, meshopt, several buffers) come back as bytes from
 * {@link encodeGlb}. `io` must have {@link FastVertexWrite} registered.
 *
 * ```ts
 * const io = new NodeIO().registerExtensions([FastVertexWrite]);
 * await writeFile('x.glb', outputContent(await streamFastGlb(io, doc))); // piece by piece
 * ```
 */
export async function streamFastGlb(io: PlatformIO, doc: Document): Promise<OutputData> {
  if (!eligible(doc)) return encodeGlb(io, doc);
  const { json, resources, tail } = await writeWithTail(io, doc, Format.GLB);
  const core: Uint8Array | undefined = resources[GLB_BUFFER];
  const binLength = tail ? tail.byteLength : (core?.byteLength ?? 0);
  const { head, total } = glbHead(json, binLength);
  return new StreamedFile(total, function* () {
    yield head;
    if (tail) yield* bufferPieces(tail, core);
    else if (binLength) yield core!;
    if (binLength % 4) yield new Uint8Array(4 - (binLength % 4));
  });
}

/**
 * `io.writeJSON(doc)` with the vertex data going once into the buffer file, which comes back as a
 * {@link StreamedFile} (see {@link streamFastGlb}).
 */
export async function writeFastJSON(
  io: PlatformIO,
  doc: Document,
): Promise<{ json: GLTF.IGLTF; resources: Record<string, OutputData> }> {
  if (!eligible(doc)) return io.writeJSON(doc);
  const { json, resources, tail } = await writeWithTail(io, doc, Format.GLTF);
  const out: Record<string, OutputData> = { ...resources };
  if (tail?.uri) {
    const core: Uint8Array | undefined = resources[tail.uri];
    out[tail.uri] = new StreamedFile(tail.byteLength, () => bufferPieces(tail, core));
  }
  return { json, resources: out };
}
