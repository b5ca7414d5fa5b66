// Values the vitest config hands to tests through inject().
import 'vitest';
declare module 'vitest' {
  interface ProvidedContext {
    /** Absolute path of ../shared/fixtures/hudi-rs. */
    FIXTURES_DIR: string;
    /** File names of the fixtures' expected/*.json. */
    FIXTURE_EXPECTED: string[];
    /** `http://127.0.0.1:<port>` of the nginx test server (test/servers/global-setup.ts). */
    NGINX_URL: string;
    /** The directory nginx serves at `/` (Node tests may write into it directly). */
    NGINX_ROOT: string;
    /** `http://127.0.0.1:<port>` of the s3rver test server; bucket `lake`. */
    S3_URL: string;
  }
}
