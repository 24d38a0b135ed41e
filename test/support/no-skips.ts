// A vitest reporter for CI (CI=true): a run with a skipped or todo test fails, naming each, so
// that CI can never report green while testing less than it claims.
import type { Reporter, TestModule } from 'vitest/node';

export default class NoSkips implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = testModules.flatMap((module) =>
      [...module.children.allTests()]
        .filter((test) => test.result().state === 'skipped')
        .map((test) => `${module.moduleId}: ${test.fullName}`),
    );
    if (skipped.length === 0) return;
    console.error(
      `FAILED: ${skipped.length} tests were skipped, and CI runs every test (KIBITZ_REQUIRE makes a missing component fail):\n  ${skipped.join('\n  ')}`,
    );
    process.exitCode = 1;
  }
}
