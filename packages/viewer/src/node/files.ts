import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LegacyError } from '@gltf-legacy/core';
import { sniff } from '../registry.js';

/** The files one input needs in the viewer: the input (first) and its companions, by base name. */
export async function gatherInput(path: string): Promise<Map<string, Uint8Array>> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (e) {
    throw new LegacyError('FILE_NOT_FOUND', `cannot read ${path}: ${(e as Error).message}`);
  }
  const name = basename(path);
  const dir = dirname(path);
  const files = new Map<string, Uint8Array>([[name, bytes]]);
  const kind = sniff(bytes, name);
  let wanted: string[] = [];
  if (kind === 'gltf') {
    // external buffers and images next to a .gltf
    const json = JSON.parse(new TextDecoder().decode(bytes)) as {
      buffers?: { uri?: string }[];
      images?: { uri?: string }[];
    };
    wanted = [...(json.buffers ?? []), ...(json.images ?? [])]
      .map((r) => r.uri)
      .filter((u): u is string => !!u && !u.startsWith('data:'))
      .map((u) => decodeURIComponent(u));
    for (const u of wanted) {
      try {
        files.set(u, new Uint8Array(await readFile(join(dir, u))));
      } catch {
        // missing resource: the converter reports it
      }
    }
    return files;
  }
  if (typeof kind === 'object' && kind.companions) {
    const siblings = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isFile() && d.name !== name)
      .map((d) => d.name);
    wanted = kind.companions(name, siblings);
    for (const c of wanted)
      if (!files.has(c) && siblings.includes(c)) files.set(c, new Uint8Array(await readFile(join(dir, c))));
  }
  return files;
}
