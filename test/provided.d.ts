// Values the vitest config hands to tests through inject().
import 'vitest';
declare module 'vitest' {
  interface ProvidedContext {
    /** Absolute path of ../shared/fixtures/hudi-rs. */
    FIXTURES_DIR: string;
    /** File names of the fixtures' expected/*.json. */
    FIXTURE_EXPECTED: string[];
  }
}
