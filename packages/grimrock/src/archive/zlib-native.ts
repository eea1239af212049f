/**
 * Node's native zlib for archive entries: core's `zlib-native.ts` (reached without a `node:`
 * import, so the viewer, converting client-side, gets fflate's pure-JavaScript inflate instead;
 * see `zlib.ts`), shared with the textures package's PNG reader and DDS residuals.
 */
export {
  inflateNative,
  type NativeInflateResult,
  nativeZlib,
  type NodeZlib,
  useNativeZlib,
} from '@gltf-legacy/core';
