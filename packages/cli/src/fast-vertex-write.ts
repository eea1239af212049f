// Owns the fast writing of vertex data (attributes and morph targets) into glTF buffer views.
// glTF-Transform's writer interleaves vertex accessors value by value through a DataView, with
// four property lookups per vertex and accessor: for an Unreal all-frames conversion (400 morph
// target accessors × 47 526 vertices) that was ~1.1 s of a 2.5 s conversion. This writer-only
// extension claims those accessors before the core writer and lays them out as it does (one
// buffer view per primitive, attributes interleaved, each padded to 4 bytes, the same byte
// stride) — except morph targets, one buffer view per accessor — by copying bytes, so every value
// keeps its exact bits. It is never named in the output: it removes itself from `extensionsUsed`.
import { endianness } from 'node:os';
import {
  type Accessor,
  type Document,
  Extension,
  type GLTF,
  type Graph,
  type Property,
  PropertyType,
  type TypedArray,
  VertexLayout,
  WriterContext,
} from '@gltf-transform/core';

const NAME = 'GLTF_LEGACY_fast_vertex_write';
const ARRAY_BUFFER = WriterContext.BufferViewUsage.ARRAY_BUFFER;

/** One buffer view this writer makes: its accessors and their bytes. */
interface View {
  data: Uint8Array;
  byteStride: number;
  accessorDefs: { bufferView?: number }[];
}

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
  const s = new View(src.buffer, src.byteOffset, (count * size) / unit);
  const d = new View(dst.buffer, dst.byteOffset, dst.byteLength / unit);
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

/**
 * The writer-only extension. Add it to a document just for one write with
 * {@link withFastVertexWrite}; it reads nothing.
 */
export class FastVertexWrite extends Extension {
  static override readonly EXTENSION_NAME = NAME;
  override readonly extensionName = NAME;
  override readonly prewriteTypes = [PropertyType.ACCESSOR];
  private views: View[] = [];

  override read(): this {
    return this;
  }

  override prewrite(context: WriterContext): this {
    const json = context.jsonDoc.json;
    json.accessors ??= [];
    const graph = this.document.getGraph();
    // group as the core writer does: by usage and first parent, per buffer
    const groups = new Map<string, Accessor[]>();
    const parentIds = new Map<Property, number>();
    const buffers = this.document.getRoot().listBuffers();
    const interleaved = context.options.vertexLayout === VertexLayout.INTERLEAVED;
    for (const accessor of this.document.getRoot().listAccessors()) {
      const buffer = accessor.getBuffer();
      const array = accessor.getArray();
      if (!buffer || !array || accessor.getSparse() || context.accessorIndexMap.has(accessor)) continue;
      if (context.getAccessorUsage(accessor) !== ARRAY_BUFFER) continue;
      const parent = graph.listParents(accessor).find((p) => p.propertyType !== PropertyType.ROOT);
      if (!parent) continue;
      let id = parentIds.get(parent);
      if (id === undefined) parentIds.set(parent, (id = parentIds.size));
      // morph targets: one view per accessor, so float deltas are passed without a copy (an
      // interleaved copy of every frame was one more output-sized buffer at the peak)
      const separate = !interleaved || parent.propertyType === PropertyType.PRIMITIVE_TARGET;
      const key = separate ? `${groups.size}` : `${buffers.indexOf(buffer)}:${id}`;
      const group = groups.get(key);
      if (group) group.push(accessor);
      else groups.set(key, [accessor]);
    }
    const otherViews = context.otherBufferViews;
    for (const accessors of groups.values()) {
      const count = accessors[0].getCount();
      if (!count || accessors.some((a) => a.getCount() !== count)) continue; // left to the core writer
      let byteStride = 0;
      const accessorDefs = [];
      for (const accessor of accessors) {
        const def = accessorDef(context, accessor, graph);
        def.byteOffset = byteStride;
        byteStride += pad4(accessor.getElementSize() * accessor.getComponentSize());
        context.accessorIndexMap.set(accessor, json.accessors.length);
        json.accessors.push(def);
        accessorDefs.push(def);
      }
      const first = accessors[0].getArray()!;
      // one accessor whose elements are already 4-byte multiples: its own bytes, no copy
      const data =
        accessors.length === 1 && first.byteLength === count * byteStride
          ? new Uint8Array(first.buffer, first.byteOffset, first.byteLength)
          : new Uint8Array(count * byteStride);
      let offset = 0;
      for (const accessor of data.buffer === first.buffer ? [] : accessors) {
        const array = accessor.getArray()!;
        const size = accessor.getElementSize() * accessor.getComponentSize();
        copyStrided(
          new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
          data,
          count,
          size,
          offset,
          byteStride,
        );
        offset += pad4(size);
      }
      const buffer = accessors[0].getBuffer()!;
      otherViews.set(buffer, [...(otherViews.get(buffer) ?? []), data]);
      this.views.push({ data, byteStride, accessorDefs });
    }
    return this;
  }

  override write(context: WriterContext): this {
    const json = context.jsonDoc.json;
    for (const { data, byteStride, accessorDefs } of this.views) {
      const index = context.otherBufferViewsIndexMap.get(data)!;
      const view = json.bufferViews![index];
      view.byteStride = byteStride;
      view.target = WriterContext.BufferViewTarget.ARRAY_BUFFER;
      for (const def of accessorDefs) def.bufferView = index;
    }
    this.views = [];
    json.extensionsUsed = json.extensionsUsed?.filter((n) => n !== NAME);
    return this;
  }
}

/**
 * Runs `write` (a glTF-Transform write of `doc` through an IO that has {@link FastVertexWrite}
 * registered) with the extension added to the document, and removes it afterwards. The core
 * writer does everything on a big-endian machine (typed arrays copy native byte order) and for
 * documents with extensions that write accessors themselves (Draco, meshopt).
 *
 * ```ts
 * const io = new NodeIO().registerExtensions([FastVertexWrite]);
 * const { json, resources } = await withFastVertexWrite(doc, () => io.writeJSON(doc));
 * ```
 */
export async function withFastVertexWrite<T>(doc: Document, write: () => Promise<T>): Promise<T> {
  // Draco and meshopt claim vertex accessors themselves (so may instancing): the core writer then
  const claimed = doc
    .getRoot()
    .listExtensionsUsed()
    .some((e) => e.prewriteTypes.includes(PropertyType.ACCESSOR));
  if (claimed || endianness() !== 'LE') return write();
  const extension = doc.createExtension(FastVertexWrite);
  try {
    return await write();
  } finally {
    extension.dispose();
  }
}
