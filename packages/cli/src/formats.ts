import type { LegacyFormat } from '@gltf-legacy/core';
import { legacyFormat as grimrock } from '@gltf-legacy/grimrock';
import { legacyFormat as tso } from '@gltf-legacy/tso';
import { legacyFormat as unigine } from '@gltf-legacy/unigine';
import { legacyFormat as unreal3d } from '@gltf-legacy/unreal3d';
import { legacyFormat as urho3d } from '@gltf-legacy/urho3d';

/**
 * Every legacy format the CLI knows, in sniffing order (formats with magic bytes first). Importing
 * this loads every format package; the command line loads only what a conversion needs
 * (format-table.ts).
 */
export const FORMATS: readonly LegacyFormat[] = [urho3d, grimrock, unigine, tso, unreal3d];
