/**
 * `MSFT_lod` as a glTF-Transform extension: a node lists the nodes that replace it at lower levels
 * of detail (`extensions.MSFT_lod.ids`, highest detail first). The LOD nodes are not part of the
 * scene, so viewers without the extension show LOD 0 only.
 */
import {
  Extension,
  ExtensionProperty,
  type IProperty,
  type Node,
  type Nullable,
  PropertyType,
  type ReaderContext,
  RefList,
  type WriterContext,
} from '@gltf-transform/core';

export const MSFT_LOD = 'MSFT_lod';

interface ILod extends IProperty {
  lods: RefList<Node>;
}

/** The lower levels of detail of one node. */
export class Lod extends ExtensionProperty<ILod> {
  static override EXTENSION_NAME: typeof MSFT_LOD = MSFT_LOD;
  declare extensionName: typeof MSFT_LOD;
  declare propertyType: 'Lod';
  declare parentTypes: [PropertyType.NODE];

  protected init(): void {
    this.extensionName = MSFT_LOD;
    this.propertyType = 'Lod';
    this.parentTypes = [PropertyType.NODE];
  }

  protected override getDefaults(): Nullable<ILod> {
    return Object.assign(super.getDefaults() as IProperty, { lods: new RefList<Node>() }) as Nullable<ILod>;
  }

  /** Appends the node used at the next lower level of detail. */
  addLod(node: Node): this {
    return this.addRef('lods', node);
  }

  /** Nodes of the lower levels, highest detail first. */
  listLods(): Node[] {
    return this.listRefs('lods');
  }
}

/**
 * Registers `MSFT_lod` on a NodeIO so LOD nodes written by the urho3d importer survive reading
 * and `prune()`.
 *
 * ```ts
 * const io = new NodeIO().registerExtensions([MSFTLod]);
 * const lod = node.getExtension<Lod>('MSFT_lod')?.listLods();
 * ```
 */
export class MSFTLod extends Extension {
  static override EXTENSION_NAME: typeof MSFT_LOD = MSFT_LOD;
  override readonly extensionName: typeof MSFT_LOD = MSFT_LOD;

  /** Creates an empty LOD list (attach it with `node.setExtension('MSFT_lod', lod)`). */
  createLod(): Lod {
    return new Lod(this.document.getGraph());
  }

  read(context: ReaderContext): this {
    const defs = context.jsonDoc.json.nodes ?? [];
    defs.forEach((def, i) => {
      const ext = def.extensions?.[MSFT_LOD] as { ids?: number[] } | undefined;
      if (!ext || !Array.isArray(ext.ids)) return;
      const lod = this.createLod();
      for (const id of ext.ids) {
        const n = context.nodes[id];
        if (n) lod.addLod(n);
      }
      context.nodes[i].setExtension(MSFT_LOD, lod);
    });
    return this;
  }

  write(context: WriterContext): this {
    const defs = context.jsonDoc.json.nodes ?? [];
    for (const node of this.document.getRoot().listNodes()) {
      const lod = node.getExtension<Lod>(MSFT_LOD);
      const index = context.nodeIndexMap.get(node);
      if (!lod || index === undefined) continue;
      const ids = lod
        .listLods()
        .map((n) => context.nodeIndexMap.get(n))
        .filter((x): x is number => x !== undefined);
      const def = defs[index];
      def.extensions = { ...(def.extensions ?? {}), [MSFT_LOD]: { ids } };
    }
    return this;
  }
}
