// The engine the engine benches measure: the one KIBITZ_ENGINE=on would run, or with `npm` the npm
// package's build. A string says why there is none.
import { locateEngine, locateNpmStockfish, type EngineProgram } from '../../src/engine/locate.js';

export function benchEngine(npm: boolean): EngineProgram | string {
  if (npm) {
    const script = locateNpmStockfish();
    return script === null
      ? 'the npm stockfish package is not installed'
      : { command: process.execPath, args: [script], kind: 'npm' };
  }
  const found = locateEngine({
    path: process.env.KIBITZ_ENGINE_PATH || null,
    searchPath: process.env.PATH ?? '',
  });
  return found.ok ? found.value : found.error;
}
