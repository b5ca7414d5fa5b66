// Runs s3rver 3.7.1 on loopback for the tests: `node --openssl-legacy-provider s3rver-main.mjs <port> <dir>`.
// Bucket `lake` with a CORS rule for the browser tests; prints `ready <port>` once listening; SIGTERM stops it.
import S3rver from 's3rver';

const port = Number(process.argv[2] ?? 0);
const directory = process.argv[3];
if (!directory) {
  console.error('usage: s3rver-main.mjs <port> <dir>');
  process.exit(2);
}
const cors = `<CORSConfiguration><CORSRule>
  <AllowedOrigin>*</AllowedOrigin>
  <AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>PUT</AllowedMethod>
  <AllowedMethod>POST</AllowedMethod><AllowedMethod>DELETE</AllowedMethod>
  <AllowedHeader>*</AllowedHeader>
  <ExposeHeader>ETag</ExposeHeader><ExposeHeader>Content-Range</ExposeHeader><ExposeHeader>Content-Length</ExposeHeader>
  <ExposeHeader>Last-Modified</ExposeHeader>
  <MaxAgeSeconds>600</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: 'lake', configs: [cors] }] });
const { port: actual } = await server.run();
console.log(`ready ${actual}`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
