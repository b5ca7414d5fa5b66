// Values the vitest config hands to tests through inject().
import 'vitest';
declare module 'vitest' {
  interface ProvidedContext {
    FIXTURES_DIR: string;
  }
}
