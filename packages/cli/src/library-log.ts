// Owns the logger that turns what glTF-Transform steps (and the encoders they drive) log into our
// warnings (`LIBRARY_LOG`), so no raw third-party line reaches the terminal.
import { Logger } from '@gltf-transform/core';
import type { WarningCollector } from '@gltf-legacy/core';

/**
 * A glTF-Transform logger whose warnings and errors become `LIBRARY_LOG` warnings (repeated lines
 * counted once with ×n); info and debug lines are dropped, as the CLI's own output says what ran.
 *
 * ```ts
 * document.setLogger(new WarningLogger(warnings)); // quantize: Skipping … → LIBRARY_LOG ×14
 * ```
 */
export class WarningLogger extends Logger {
  constructor(private readonly warnings: WarningCollector) {
    super(Logger.Verbosity.WARN);
  }

  override debug(_text: string): void {}

  override info(_text: string): void {}

  override warn(text: string): void {
    this.warnings.warn('LIBRARY_LOG', text);
  }

  override error(text: string): void {
    this.warnings.warn('LIBRARY_LOG', text);
  }
}
