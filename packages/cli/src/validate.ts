import { readInput } from './files.js';
import { dirname } from 'node:path';
import { LegacyError, resolveReference } from '@gltf-legacy/core';
import { FolderResources } from './folder-resources.js';

/** Summary of a Khronos glTF-Validator report. */
export interface ValidationSummary {
  file: string;
  validatorVersion: string;
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  messages: {
    severity: 'error' | 'warning' | 'info' | 'hint';
    code: string;
    pointer?: string;
    message: string;
  }[];
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/**
 * Runs the Khronos glTF-Validator on GLB or glTF bytes; external resources (`.bin`, images) are
 * read from `dir` when given, through a {@link FolderResources}: a URI that is absolute, climbs out
 * of `dir` or has a scheme is never read (the validator reports the refusal as an IO error).
 */
export async function validateGltfBytes(
  bytes: Uint8Array,
  file = 'model.glb',
  dir?: string,
): Promise<ValidationSummary> {
  const { validateBytes, version } = await import('gltf-validator');
  const resources = dir ? new FolderResources(dir) : undefined;
  let report: Awaited<ReturnType<typeof validateBytes>>;
  try {
    report = await validateBytes(bytes, {
      uri: file,
      maxIssues: 500,
      externalResourceFunction: async (uri: string) => {
        if (!resources) throw new Error(`external resource ${uri} not available`);
        const data = await resources.read(resolveReference(uri, '', { uri: true, file }));
        if (!data) throw new Error(`external resource ${uri} not found in ${resources.label}`);
        return data;
      },
    });
  } catch (e) {
    // the validator itself throws on some malformed files (`"meshes": [null]`: a NoSuchMethodError)
    throw new LegacyError(
      'VALIDATOR_FAILED',
      `${file}: the Khronos glTF-Validator could not read it (${(e as Error)?.message ?? String(e)})`,
    );
  }
  return {
    file,
    validatorVersion: version(),
    errors: report.issues.numErrors,
    warnings: report.issues.numWarnings,
    infos: report.issues.numInfos,
    hints: report.issues.numHints,
    messages: report.issues.messages.map((m) => ({
      severity: SEVERITY[m.severity] ?? 'info',
      code: m.code,
      pointer: m.pointer,
      message: m.message,
    })),
  };
}

/** Validates a `.glb`/`.gltf` file on disk. */
export async function validateFile(path: string): Promise<ValidationSummary> {
  const bytes = readInput(path);
  return validateGltfBytes(bytes, path, dirname(path));
}
