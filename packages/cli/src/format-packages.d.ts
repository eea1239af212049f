// Fallback types for the format packages, used only while a package's build has no index.d.ts
// yet (TypeScript prefers the real declarations when they exist). The CLI needs just this export.
declare module '@gltf-legacy/grimrock' {
  export const legacyFormat: import('@gltf-legacy/core').LegacyFormat | undefined;
}
declare module '@gltf-legacy/tso' {
  export const legacyFormat: import('@gltf-legacy/core').LegacyFormat | undefined;
}
declare module '@gltf-legacy/unigine' {
  export const legacyFormat: import('@gltf-legacy/core').LegacyFormat | undefined;
}
declare module '@gltf-legacy/unreal3d' {
  export const legacyFormat: import('@gltf-legacy/core').LegacyFormat | undefined;
}
declare module '@gltf-legacy/urho3d' {
  export const legacyFormat: import('@gltf-legacy/core').LegacyFormat | undefined;
}
