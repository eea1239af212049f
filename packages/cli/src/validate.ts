import { readInput } from './files.js';
import { dirname, join } from 'node:path';

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
 * read from `dir` when given.
 */
export async function validateGltfBytes(
  bytes: Uint8Array,
  file = 'model.glb',
  dir?: string,
): Promise<ValidationSummary> {
  const { validateBytes, version } = await import('gltf-validator');
  const report = await validateBytes(bytes, {
    uri: file,
    maxIssues: 500,
    externalResourceFunction: async (uri: string) => {
      if (!dir) throw new Error(`external resource ${uri} not available`);
      return readInput(join(dir, decodeURIComponent(uri)));
    },
  });
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
